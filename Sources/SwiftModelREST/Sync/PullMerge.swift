import Foundation

/// Server records merged into the local store, inside the caller's local transaction: the
/// one merge every pull runs (a full list, a feed page, a resync), with the merge policy
/// deciding records changed on both sides. What it changed is collected in ``changes``
/// for publication once the transaction commits.
struct PullMerge {
    let sync: RESTSync
    let schema: ModelSchema
    let policy: MergePolicy
    /// What the merge changed locally, published after it commits (contexts, streams).
    private(set) var changes: [ModelChange] = []
    private let publishes = CommitBus.takesChanges

    init(sync: RESTSync, schema: ModelSchema, policy: MergePolicy) {
        self.sync = sync
        self.schema = schema
        self.policy = policy
    }

    private var local: any PersistenceAdapter { sync.store.local }
    private var journal: SyncJournal { sync.store.journal }

    /// Inserts records only on the server, skips identical ones, and lets the policy
    /// decide differing ones (a record with an unpushed change is a conflict).
    mutating func merge(_ rows: [[ModelValue]], into report: inout SyncReport) throws {
        for row in rows {
            var pending = try journal.entry(model: schema.modelName, id: row[0])
            if let mine = pending, mine.provisional, mine.operation == .insert {
                // A local record holds this id only provisionally: it moves aside.
                try sync.moveAside(schema, mine)
                pending = nil
            }
            guard let mine = try local.find(id: row[0], in: schema) else {
                if pending?.operation == .delete {
                    report.conflicts.append(SyncConflict(model: schema.modelName, id: row[0], resolution: .keepLocal))
                    report.skipped += 1
                } else {
                    _ = try local.insert(row, into: schema)
                    if publishes { changes.append(.external(.insert, schema: schema, id: row[0], values: row)) }
                    report.inserted += 1
                }
                continue
            }
            if mine == row {
                report.skipped += 1
                continue
            }
            let decision = sync.decide(policy, local: mine, remote: row, pending: pending != nil, schema: schema)
            if let change = pending {
                report.conflicts.append(SyncConflict(model: schema.modelName, id: row[0], resolution: decision))
                if decision == .takeRemote { try journal.remove(change) }
            }
            if decision == .takeRemote {
                try local.update(row, changedColumns: Array(1..<row.count), in: schema)
                if publishes { changes.append(.external(.update, schema: schema, id: row[0], values: row)) }
                report.updated += 1
            } else {
                report.skipped += 1
            }
        }
    }

    /// Deletes the record the server removed (deleted, or moved out of the client's
    /// reach). One with an unpushed change is a conflict the policy decides: kept (and
    /// pushed later) by `.serverWinsUnlessPending`, `.keepLocal` and `.newestWins` (a
    /// removal has no `updated_at`), deleted with its change dropped by `.takeRemote`;
    /// `.custom` is asked with an empty remote row.
    mutating func remove(_ id: ModelValue, into report: inout SyncReport) throws {
        let pending = try journal.entry(model: schema.modelName, id: id)
        // A provisional id is the client's own record, not the server's: not this one.
        if let pending, pending.provisional, pending.operation == .insert { return }
        guard let mine = try local.find(id: id, in: schema) else {
            if let pending { try journal.remove(pending) }  // deleted on both sides
            return
        }
        if let pending {
            let decision: MergeDecision =
                switch policy {
                case .takeRemote: .takeRemote
                case .custom(let decide): decide(Dictionary(uniqueKeysWithValues: zip(schema.columnNames, mine)), [:])
                case .serverWinsUnlessPending, .keepLocal, .newestWins: .keepLocal
                }
            report.conflicts.append(SyncConflict(model: schema.modelName, id: id, resolution: decision))
            guard decision == .takeRemote else {
                report.skipped += 1
                return
            }
            try journal.remove(pending)
        }
        if try local.delete(id: id, from: schema) {
            if publishes { changes.append(.external(.delete, schema: schema, id: id, values: mine)) }
            report.deleted += 1
        }
    }

    /// Deletes local records matching `predicate` that `kept` does not hold and that have
    /// no unpushed change (a pull that read the whole list).
    mutating func deleteMissing(keeping kept: [[ModelValue]], where predicate: QueryPredicate?, into report: inout SyncReport) throws {
        let seen = Set(kept.map { $0[0] })
        for row in try local.fetch(StoreQuery(schema: schema, predicate: predicate)) where !seen.contains(row[0]) {
            guard try journal.entry(model: schema.modelName, id: row[0]) == nil else { continue }
            if try local.delete(id: row[0], from: schema) {
                if publishes { changes.append(.external(.delete, schema: schema, id: row[0], values: row)) }
                report.deleted += 1
            }
        }
    }
}
