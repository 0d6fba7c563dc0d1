import Foundation

/// Pulls through a changes feed (``RESTResource/changesFeed``): only what changed since
/// the stored checkpoint, page by page, each page merged in one local transaction with
/// the checkpoint it ends at.
///
/// - The first pull, and a pull after the server compacted the changes past the
///   checkpoint (410), read the whole collection instead (a resync): the feed's head is
///   taken first, then every record is merged and local records the server no longer has
///   are deleted (unless they have unpushed changes), and the head becomes the
///   checkpoint. Changes committed between the two reads come again in the next pull,
///   as the records are then: merging them twice is harmless.
/// - A page is applied only if the checkpoint is still the cursor it was read after; a
///   pull that finds another one moved it reads on from there (so two pulls at once never
///   apply an older page over a newer one).
extension RESTSync {
    /// The records one feed request asks for.
    static let feedPageSize = 500

    var checkpoints: SyncCheckpoints { SyncCheckpoints(store: store.local) }

    /// Reads and applies `schema`'s feed until it has nothing more; with the pull lock held.
    func pullChanges(_ schema: ModelSchema, policy: MergePolicy) throws -> SyncReport {
        try store.local.prepare(SyncCheckpoint.schema)
        var report = SyncReport()
        report.followedChanges = true
        while true {
            guard let cursor = try checkpoints.cursor(schema.modelName) else {
                guard case .page(let head) = try remote.changes(schema, since: nil, limit: 1) else { throw compactedHead(schema) }
                let (rows, complete) = try remote.fetchProvingCompleteness(StoreQuery(schema: schema))
                try apply(.resync(rows, complete: complete, head: head.next), after: nil, schema, policy, into: &report)
                return report
            }
            switch try remote.changes(schema, since: cursor, limit: Self.feedPageSize) {
            case .compacted:
                try checkpoints.clear(schema.modelName)
            case .page(let page):
                let applied = try apply(.page(page), after: cursor, schema, policy, into: &report)
                if applied && !page.more { return report }
            }
        }
    }

    /// What a pull merges: a feed page, or the whole collection read after taking the head.
    enum FeedStep {
        case page(FeedPage)
        case resync([[ModelValue]], complete: Bool, head: String)
    }

    /// Merges `step` and moves the checkpoint in one local transaction, unless the
    /// checkpoint is no longer `cursor` (another pull moved it: nothing is merged and the
    /// caller reads on from the new one). Returns whether it merged.
    @discardableResult
    func apply(_ step: FeedStep, after cursor: String?, _ schema: ModelSchema, _ policy: MergePolicy, into report: inout SyncReport)
        throws -> Bool
    {
        var merge = PullMerge(sync: self, schema: schema, policy: policy)
        var counted = SyncReport()
        let merged = try store.local.withTransaction { () throws -> Bool in
            guard try checkpoints.cursor(schema.modelName) == cursor else { return false }
            switch step {
            case .page(let page):
                for change in page.changes {
                    switch change {
                    case .upsert(let row): try merge.merge([row], into: &counted)
                    case .remove(let id): try merge.remove(id, into: &counted)
                    }
                }
                try checkpoints.set(schema.modelName, page.next)
            case .resync(let rows, let complete, let head):
                guard complete else {
                    throw RESTError(
                        .incompleteList, method: "GET", model: schema.modelName,
                        message: "a resync deletes what the server no longer has, so it needs a list that provably holds every "
                            + "record (X-Total-Count, or a count in its envelope); nothing was merged")
                }
                try merge.merge(rows, into: &counted)
                try merge.deleteMissing(keeping: rows, where: nil, into: &counted)
                try checkpoints.set(schema.modelName, head)
            }
            return true
        }
        guard merged else { return false }
        if case .resync = step { report.resynced = true }
        report.inserted += counted.inserted
        report.updated += counted.updated
        report.deleted += counted.deleted
        report.skipped += counted.skipped
        report.conflicts += counted.conflicts
        if counted.inserted + counted.updated + counted.deleted > 0 {
            CommitBus.publishExternal(merge.changes, schemas: [schema], store: store)
        }
        return true
    }

    func compactedHead(_ schema: ModelSchema) -> RESTError {
        RESTError(.invalidResponse, method: "GET", model: schema.modelName, message: "the feed answered since=now with 410; a head is never compacted")
    }

    /// Forgets `type`'s feed checkpoint: its next pull reads the whole collection again.
    public func resetCheckpoint<M: ModelProtocol>(_ type: M.Type) throws {
        try store.local.prepare(SyncCheckpoint.schema)
        try running.withLock { _ in try checkpoints.clear(M.schema.modelName) }
    }

    /// The cursor `type`'s next pull reads the feed after (nil before the first pull).
    public func checkpoint<M: ModelProtocol>(_ type: M.Type) throws -> String? {
        try store.local.prepare(SyncCheckpoint.schema)
        return try checkpoints.cursor(M.schema.modelName)
    }
}
