import Foundation

/// Pushing the journal, and what the app can do with an entry the server refused.
extension RESTSync {
    /// Sends every journaled change that has not failed, oldest first, and reports each
    /// one's outcome (``SyncReport/outcomes``).
    ///
    /// - An insert is posted with an `Idempotency-Key` (a retry never duplicates it); its
    ///   provisional id is not sent, and the server's id replaces it everywhere (stored row,
    ///   children's foreign keys, journal, live instances). The server's answer (fields it
    ///   sets) is stored locally.
    /// - An update sends the changed columns; a delete deletes (a record already gone
    ///   counts as deleted).
    /// - A change the server refuses — a 4xx other than 408 and 429 — stays in the journal
    ///   as failed (see ``journal()``, ``retry(_:)``, ``drop(_:)``, ``revert(_:)``) and the
    ///   push goes on with the others. A change to a record whose create has not reached the
    ///   server waits.
    ///
    /// - Throws: the first error that is not the server refusing one change (offline, a
    ///   timeout, a 5xx after retries): changes not yet sent stay journaled for the next push.
    @discardableResult
    public func push() throws -> SyncReport {
        try running.withLock { _ in
            var report = SyncReport()
            for entry in try store.journal.entries() where entry.failure == nil {
                guard let schema = schemas.withLock({ $0[entry.model] }) else { continue }
                var outcome = SyncOutcome(model: entry.model, id: entry.id, operation: entry.operation, result: .sent)
                do {
                    try remote.withHeaders(["Idempotency-Key": entry.idempotencyKey]) {
                        try send(entry, schema, &report, &outcome)
                    }
                } catch let error as RESTError where Self.isRefusal(error) {
                    outcome.result = .failed(error.description)
                    try store.journal.mark(entry, failure: error.description, attempted: true)
                } catch let error as StoreError where error.kind == .uniqueViolation || error.kind == .duplicateID {
                    outcome.result = .failed(error.description)
                    try store.journal.mark(entry, failure: error.description, attempted: true)
                }
                if case .conflict(let message) = outcome.result {
                    try store.journal.mark(entry, failure: message, attempted: true)
                }
                report.outcomes.append(outcome)
            }
            return report
        }
    }

    /// A 4xx the server means for this change alone (not 408 or 429, which are worth
    /// waiting out).
    static func isRefusal(_ error: RESTError) -> Bool {
        guard error.kind == .status, let status = error.status else { return error.kind == .invalidResponse }
        return (400..<500).contains(status) && status != 408 && status != 429
    }

    /// Whether `row` points at a parent whose create has not reached the server.
    private func waitsForParent(_ row: [ModelValue], _ schema: ModelSchema) throws -> Bool {
        for parent in store.tracking(schema)?.parents ?? [] where !row[parent.column].isNull {
            if let pending = try store.journal.entry(model: parent.target.modelName, id: row[parent.column]),
                pending.operation == .insert, pending.provisional
            {
                return true
            }
        }
        return false
    }

    private func send(_ entry: SyncEntry, _ schema: ModelSchema, _ report: inout SyncReport, _ outcome: inout SyncOutcome) throws {
        let local = store.local
        let journal = store.journal
        let storeID = ObjectIdentifier(store)
        switch entry.operation {
        case .insert:
            guard var row = try local.find(id: entry.id, in: schema) else { return try journal.remove(entry) }
            if try waitsForParent(row, schema) {
                outcome.result = .waiting
                return
            }
            if entry.provisional { row[0] = .null }
            let (assigned, stored) = try remote.insertReturningStored(row, into: schema)
            var settled = stored ?? row
            settled[0] = assigned
            try local.withTransaction {
                try journal.remove(entry)
                if assigned != entry.id {
                    try rekey(schema, from: entry.id, to: assigned, row: settled, provisional: false)
                } else {
                    try local.update(settled, changedColumns: Array(1..<settled.count), in: schema)
                }
            }
            if assigned != entry.id {
                outcome.serverID = assigned
                ProvisionalIdentities.rekey(store: storeID, schema: schema, from: entry.id, to: assigned, stored: settled)
            } else {
                ProvisionalIdentities.settle(store: storeID, schema: schema, id: entry.id, stored: settled)
            }
            report.inserted += 1
        case .update:
            guard let row = try local.find(id: entry.id, in: schema) else { return try journal.remove(entry) }
            if try waitsForParent(row, schema) {
                outcome.result = .waiting
                return
            }
            let columns = entry.changedColumns.map { names in names.compactMap { schema.index(ofColumn: $0) } } ?? Array(1..<row.count)
            do {
                if let stored = try remote.updateReturningStored(row, changedColumns: columns, in: schema), stored != row {
                    try local.withTransaction {
                        try local.update(stored, changedColumns: Array(1..<stored.count), in: schema)
                        try journal.remove(entry)
                    }
                } else {
                    try journal.remove(entry)
                }
                report.updated += 1
            } catch let error as StoreError where error.kind == .notFound {
                report.conflicts.append(SyncConflict(model: schema.modelName, id: entry.id, resolution: .keepLocal))
                outcome.result = .conflict("the server no longer has this record: revert(_:) to delete it locally, or drop(_:)")
            } catch let error as RESTError where error.status == 409 || error.status == 412 {
                report.conflicts.append(SyncConflict(model: schema.modelName, id: entry.id, resolution: .keepLocal))
                outcome.result = .conflict(error.description)
            }
        case .delete:
            _ = try remote.delete(id: entry.id, from: schema)
            try journal.remove(entry)
            report.deleted += 1
        }
    }

    /// Gives a record another id — the server's, or a fresh provisional one — and moves its
    /// children's foreign keys and its journal entry.
    func rekey(_ schema: ModelSchema, from old: ModelValue, to new: ModelValue, row: [ModelValue], provisional: Bool) throws {
        let local = store.local
        var moved = row
        moved[0] = new
        if try local.find(id: new, in: schema) != nil {
            // Pulled meanwhile: the same server record; ours is what the server now holds.
            try local.update(moved, changedColumns: Array(1..<moved.count), in: schema)
        } else {
            _ = try local.insert(moved, into: schema)
        }
        for (child, column) in store.children(of: schema) {
            _ = try local.update(StoreQuery(schema: child, predicate: .compare(column: column, .equal, old)), set: [column: new])
        }
        // Last, so a store with foreign key actions does not nullify the children first.
        _ = try local.delete(id: old, from: schema)
        try store.journal.rekey(model: schema.modelName, from: old, to: new, provisional: provisional)
        if !provisional { store.translate(schema, from: old, to: new) }
    }

    // MARK: Failed entries

    /// Clears an entry's failure so the next push sends it again (after the app fixed the
    /// record, or the server was fixed).
    public func retry(_ entry: SyncEntry) throws {
        try running.withLock { _ in try store.journal.mark(entry, failure: nil, attempted: false) }
    }

    /// Forgets an entry: the local record stays as it is and the server is never told.
    public func drop(_ entry: SyncEntry) throws {
        try running.withLock { _ in try store.journal.remove(entry) }
    }

    /// Forgets an entry and puts the server's version of the record back locally (deleting
    /// it locally when the server has none, as for a create the server refused).
    public func revert(_ entry: SyncEntry) throws {
        guard let schema = schemas.withLock({ $0[entry.model] }) else {
            throw StoreError(.invalidRequest, table: entry.model, message: "\(entry.model) is not tracked by this sync")
        }
        try running.withLock { _ in
            let server = entry.provisional ? nil : try remote.find(id: entry.id, in: schema)
            let local = store.local
            try local.withTransaction {
                if let server {
                    if try local.find(id: entry.id, in: schema) != nil {
                        try local.update(server, changedColumns: Array(1..<server.count), in: schema)
                    } else {
                        _ = try local.insert(server, into: schema)
                    }
                } else {
                    _ = try local.delete(id: entry.id, from: schema)
                }
                try store.journal.remove(entry)
            }
            let change: ModelChange =
                server.map { .external(.update, schema: schema, id: entry.id, values: $0) }
                ?? .external(.delete, schema: schema, id: entry.id, values: [])
            CommitBus.publishExternal([change], schemas: [schema], store: store)
        }
    }
}
