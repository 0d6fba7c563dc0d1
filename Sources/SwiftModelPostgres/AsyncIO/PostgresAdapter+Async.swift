import ModelSQL

/// Async store operations on libpq's non-blocking API: outside transactions, an async call
/// borrows a connection without blocking (``ConnectionPool/acquire(on:)``), sends its
/// statement and suspends on the adapter's ``PGEventLoop`` until the result is in, so it
/// holds no thread while PostgreSQL works and as many calls run at once as the pool has
/// connections. Inside a transaction, calls run on the transaction's pinned connection
/// from its executor, as synchronous ones do (``AsyncStoreRoute``).
///
/// Cancelling the task of a call cancels its statement on the server and the call throws
/// `CancellationError`; the connection it used is closed and replaced.
extension PostgresAdapter: AsyncPersistenceAdapter {
    /// The row with this id, by primary key, without blocking a thread.
    public func find(id: ModelValue, in schema: ModelSchema) async throws -> [ModelValue]? {
        try await run(try await preparedTable(schema).findOperation(id))
    }

    /// The rows matching `query` (one prepared `SELECT`), without blocking a thread.
    public func fetch(_ query: StoreQuery) async throws -> [[ModelValue]] {
        try await run(try await preparedTable(query.schema).fetchOperation(query, dialect))
    }

    /// `SELECT count(*)` of the rows matching `query`, without blocking a thread.
    public func count(_ query: StoreQuery) async throws -> Int {
        try await run(try await preparedTable(query.schema).countOperation(query, dialect))
    }

    /// `query.aggregate` computed in SQL, without blocking a thread.
    ///
    /// - Throws: ``StoreError`` `.invalidRequest` without an aggregate; `.storage` on
    ///   integer overflow in `sum`.
    public func aggregate(_ query: StoreQuery) async throws -> [AggregateGroup] {
        try await run(try await preparedTable(query.schema).aggregateOperation(query, dialect, on: PGConnection.self))
    }

    /// Inserts a row (see ``insert(_:into:)``) without blocking a thread; the stored row is
    /// the row sent.
    public func insertReturningStored(_ row: [ModelValue], into schema: ModelSchema) async throws -> (
        id: ModelValue, stored: [ModelValue]?
    ) {
        let table = try await preparedTable(schema)
        let id = try await table.insert(row, violations: { PGConnection.violation($0, in: table) }) {
            try await writingAsync([schema.tableName]) { try await $0.reply(to: .insert(row, table), on: loop).id }
        }
        return (id, nil)
    }

    /// Writes the changed columns of a row (see ``update(_:changedColumns:in:)``) without
    /// blocking a thread; the stored row is the row sent.
    public func updateReturningStored(_ row: [ModelValue], changedColumns: [Int], in schema: ModelSchema) async throws
        -> [ModelValue]?
    {
        let table = try await preparedTable(schema)
        try await table.update(row, changedColumns: changedColumns, violations: { PGConnection.violation($0, in: table) }) {
            columns in
            try await writingAsync([schema.tableName]) { connection in
                try await connection.reply(to: .updateRow(row, columns: columns, table), on: loop).count
            }
        }
        return nil
    }

    /// Deletes the row with this id without blocking a thread; whether there was one.
    public func delete(id: ModelValue, from schema: ModelSchema) async throws -> Bool {
        try await run(try await preparedTable(schema).deleteOperation(id: id, changing: tablesChangedByDelete(from: schema)))
    }

    /// Deletes the rows matching `query` in one `DELETE`, without blocking a thread.
    public func delete(_ query: StoreQuery) async throws -> Int {
        let table = try await preparedTable(query.schema)
        return try await run(try table.deleteOperation(query, dialect, changing: tablesChangedByDelete(from: query.schema)))
    }

    /// Sets columns on the rows matching `query` in one `UPDATE`, without blocking a thread.
    ///
    /// - Throws: ``StoreError`` `.uniqueViolation` when a `.unique` column would hold one
    ///   value in two rows (no row changes).
    public func update(_ query: StoreQuery, set values: [Int: ModelValue]) async throws -> Int {
        let table = try await preparedTable(query.schema)
        guard let operation = try table.updateOperation(query, set: values, dialect, on: PGConnection.self) else { return 0 }
        return try await run(operation)
    }

    /// Runs `operation` without blocking a thread: the async driver of the operations
    /// ``SQLStore/run(_:)`` runs on the calling thread.
    private func run<Answer>(_ operation: SQLOperation<Answer>) async throws -> Answer {
        let reply: SQLReply
        do {
            switch operation.access {
            case .read: reply = try await readingAsync { try await $0.reply(to: operation.call, on: loop) }
            case .write(let tables): reply = try await writingAsync(tables) { try await $0.reply(to: operation.call, on: loop) }
            }
        } catch {
            throw operation.failure(error)
        }
        return try operation.answer(reply)
    }

    // MARK: Connections

    /// The table of `schema`; a first use prepares it on ``BlockingPool`` (DDL is rare and
    /// runs on the synchronous path).
    private func preparedTable(_ schema: ModelSchema) async throws -> SQLTable {
        if let table = catalog.table(for: schema) { return table }
        return try await BlockingPool.shared.run { [self] in try table(for: schema) }
    }

    /// A write on a primary connection lent without blocking; then publishes the change and
    /// records the WAL position for read-your-writes.
    private func writingAsync<R>(_ tables: [String], _ body: (PGConnection) async throws -> R) async throws -> R {
        try await primary.with(on: loop) { connection in
            let result = try await body(connection)
            publisher?.publish(tables)
            await router.wrote(on: connection, loop: loop)
            return result
        }
    }

    /// A read on a replica that has replayed this adapter's writes, or the primary; retried
    /// once on a fresh connection when its connection broke.
    private func readingAsync<R>(_ body: (PGConnection) async throws -> R) async throws -> R {
        do {
            return try await router.read(primary: primary, loop: loop, body)
        } catch let error as PostgresError where error.kind == .connection {
            return try await router.read(primary: primary, loop: loop, body)
        }
    }
}

extension PGResult {
    /// The rows as `slots` asks: per value, the result column and the model column of
    /// `table` it decodes as (nil: as stored).
    func rows(_ slots: [SQLResultSlot], of table: SQLTable) -> [[ModelValue]] {
        let oids = slots.map { oid($0.position) }
        return (0..<rowCount).map { r in
            slots.indices.map { s in
                let value = value(r, slots[s].position, oid: oids[s])
                return slots[s].column.map { table.loaded(value, $0) } ?? value
            }
        }
    }
}
