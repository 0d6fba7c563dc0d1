/// What a pull or a push did, record by record counts and the conflicts.
public struct SyncReport: Sendable, Equatable, CustomStringConvertible {
    /// Records added (locally by a pull, on the server by a push).
    public var inserted = 0
    /// Records changed.
    public var updated = 0
    /// Records deleted.
    public var deleted = 0
    /// Records left as they were (identical, or the policy kept the local version).
    public var skipped = 0
    /// Records changed on both sides, with what was decided.
    public var conflicts: [SyncConflict] = []
    /// For a push: what happened to each journaled change, in the order sent.
    public var outcomes: [SyncOutcome] = []
    /// For a pull: whether it read a changes feed (``RESTResource/changesFeed``) rather than
    /// the whole list.
    public var followedChanges = false
    /// For a pull through a feed: whether it read the whole collection instead (the first
    /// pull, or the server had compacted the changes after the checkpoint).
    public var resynced = false
    /// For a push: changes the server refused (kept in the journal as failed).
    public var failed: Int { outcomes.filter { if case .failed = $0.result { true } else if case .conflict = $0.result { true } else { false } }.count }

    /// An empty report.
    public init() {}

    public var description: String {
        "inserted \(inserted), updated \(updated), deleted \(deleted), skipped \(skipped), conflicts \(conflicts.count)"
            + (outcomes.isEmpty ? "" : ", failed \(failed)")
    }
}

/// A record changed both locally (not yet pushed) and on the server.
public struct SyncConflict: Sendable, Equatable {
    /// The model.
    public var model: String
    /// The record's id.
    public var id: ModelValue
    /// What the merge policy decided.
    public var resolution: MergeDecision

    /// A conflict.
    public init(model: String, id: ModelValue, resolution: MergeDecision) {
        self.model = model
        self.id = id
        self.resolution = resolution
    }
}

/// What to do with a record that differs locally and remotely.
public enum MergeDecision: String, Sendable, Hashable {
    /// Keep the local version (and its pending change).
    case keepLocal
    /// Replace the local version with the server's (dropping its pending change).
    case takeRemote
}

/// How a pull resolves records that differ locally and remotely.
public enum MergePolicy: Sendable {
    /// The server's version wins, unless the record has an unpushed local change (which
    /// then wins and is reported as a conflict). The default: it needs no `updated_at`.
    case serverWinsUnlessPending
    /// Local versions win.
    case keepLocal
    /// Server versions win.
    case takeRemote
    /// The version with the later `updated_at` wins (local on a tie or when either row has
    /// none). A model without an `updated_at` column is refused with ``StoreError``
    /// `.invalidRequest`, rather than never taking a server change.
    case newestWins
    /// Your function of the local and remote rows (column name → value) decides, as
    /// MotionModel seeds' `merge_if`.
    case custom(@Sendable (_ local: [String: ModelValue], _ remote: [String: ModelValue]) -> MergeDecision)
}
