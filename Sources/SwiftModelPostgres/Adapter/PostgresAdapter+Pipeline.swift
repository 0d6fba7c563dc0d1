import ModelSQL

/// Pipelined writes inside transactions: a record's insert, update or delete inside a
/// transaction is sent without waiting for its result (libpq pipeline mode), so a
/// transaction of N writes costs a handful of round trips instead of N. Generated ids come
/// from blocks reserved from the table's identity sequence, so an insert knows its id
/// before the server answers.
///
/// A failed pipelined write throws — as the error the write would have thrown had it
/// waited — from the next call that needs a round trip on the transaction's connection:
/// a read (find, fetch, count, aggregate, raw SQL), a write that is not pipelined (query
/// updates and deletes, `delete(id:)`, DDL), a nested transaction's start or end,
/// ``flush()``, `COMMIT`, reserving the next block of ids, the first write of a statement
/// the connection has not prepared yet, or the 512th waiting write. See
/// `Docs/PostgreSQL.md` ("Pipelined writes").
extension PostgresAdapter {
    /// Reads the results of the writes the caller's transaction has sent and not yet heard
    /// back from; throws the first failure. Does nothing outside a transaction (writes there
    /// wait for their result).
    ///
    /// ```swift
    /// try store.transaction {
    ///     try user.save(to: store)   // sent; returns without waiting
    ///     try store.flush()          // a unique violation of that save throws here
    /// }
    /// ```
    public func flush() throws {
        guard let pin = pin() else { return }
        try pin.lock.withLock { try pin.connection.settle() }
    }

    /// Inserts `row` on the transaction's connection without waiting for the result; the
    /// id is the row's own or one reserved from the table's sequence.
    func pipelinedInsert(_ row: [ModelValue], into table: SQLTable, _ pin: Pin) throws -> ModelValue {
        try table.insert(row, violations: { PGConnection.violation($0, in: table) }) {
            try pin.lock.withLock {
                var stored = table.stored(row)
                if row[0].isNull {
                    guard let id = try reservedID(table, on: pin.connection) else {
                        return try pin.connection.insert(row, into: table)
                    }
                    stored[0] = id
                }
                try pin.connection.send(PGPendingWrite(sql: table.insertSQL, arguments: stored, kind: .insert(table, id: stored[0])))
                if let bump = table.sequenceBump(row) {
                    try pin.connection.send(PGPendingWrite(sql: bump.sql, arguments: bump.arguments, kind: .plain))
                }
                if publisher != nil { pin.changed.insert(table.schema.tableName) }
                return stored[0]
            }
        }
    }

    /// Updates `row` on the transaction's connection without waiting for the result.
    func pipelinedUpdate(_ row: [ModelValue], changedColumns: [Int], in table: SQLTable, _ pin: Pin) throws {
        try table.update(row, changedColumns: changedColumns, violations: { PGConnection.violation($0, in: table) }) { columns in
            try pin.lock.withLock {
                let arguments = columns.map { table.stored(row[$0], $0) } + [row[0]]
                try pin.connection.send(PGPendingWrite(sql: table.updateSQL(columns), arguments: arguments, kind: .update(table, id: row[0])))
                if publisher != nil { pin.changed.insert(table.schema.tableName) }
                return 1  // the row count is checked when the result is read
            }
        }
    }

    /// Deletes a stored record's row; inside a transaction without waiting for the result.
    ///
    /// - Throws: `ModelError` `.recordNotFound` when no row has this id (inside a
    ///   transaction, from the call that reads the result); ``PostgresError``
    ///   `.foreignKeyViolation` when a `.restrict` relation still has children.
    public func deleteStored(id: ModelValue, from schema: ModelSchema) throws {
        let table = try table(for: schema)
        guard let pin = pin() else {
            guard try delete(id: id, from: schema) else { throw PGPendingWrite.Kind.delete(table, id: id).missing }
            return
        }
        try pin.lock.withLock {
            try pin.connection.send(PGPendingWrite(sql: table.deleteSQL, arguments: [id], kind: .delete(table, id: id)))
            if publisher != nil { pin.changed.formUnion(tablesChangedByDelete(from: schema)) }
        }
    }

    /// The next id reserved for `table`, reserving a block from its identity sequence on
    /// `connection` when none is left; nil when the table has no sequence to reserve from.
    ///
    /// Blocks grow from 16 to 1,024 ids per table. Sequence values are not transactional,
    /// so ids reserved by a transaction that rolls back, or left when the adapter closes,
    /// are gaps — as PostgreSQL's own generated ids are after a rollback. Ids are unique
    /// but, across adapters (processes), not in the order rows were inserted.
    private func reservedID(_ table: SQLTable, on connection: PGConnection) throws -> ModelValue? {
        guard let sequence = table.facts.idSequence else { return nil }
        let key = ObjectIdentifier(table)
        let (next, size) = reservedIDs.withLock { blocks -> (Int64?, Int) in
            (blocks[key]?.ids.popLast(), blocks[key]?.nextSize ?? 16)
        }
        if let next { return .int(next) }
        let ids = try connection.query(
            "SELECT nextval($1::regclass) FROM generate_series(1, $2)", [.string(sequence), .int(Int64(size))]
        ).integers()
        guard let first = ids.first else {
            throw PostgresError(.mismatch, message: "the sequence \(sequence) reserved no ids", sql: "nextval")
        }
        reservedIDs.withLock { blocks in
            var block = blocks[key] ?? IDBlock()
            block.ids.append(contentsOf: ids.dropFirst().reversed())
            block.nextSize = min(1_024, size * 2)
            blocks[key] = block
        }
        return .int(first)
    }
}

/// Ids a ``PostgresAdapter`` reserved from one table's sequence and has not used
/// (in reverse order: the next is last).
struct IDBlock {
    var ids: [Int64] = []
    var nextSize = 16
}

extension PGPendingWrite.Kind {
    /// The error of a write that found no row.
    var missing: any Error {
        PGPendingWrite(sql: "", arguments: [], kind: self).verdict(changed: 0)
            ?? PostgresError(.mismatch, message: "the write changed no row")
    }
}

extension PGResult {
    /// The first column of each row as an integer.
    func integers() -> [Int64] {
        (0..<rowCount).compactMap { row in
            if case .int(let i) = value(row, 0, oid: oid(0)) { return i }
            return nil
        }
    }
}
