import ModelSQL

extension PostgresAdapter {
    /// Prepares `schema`'s table for the transaction `pin` on a connection of its own, in a
    /// short transaction committed at once, so that the DDL's locks (the advisory lock, the
    /// new table's catalog rows) are never held until `pin`'s transaction ends: other
    /// callers using the table — synchronous ones on Swift's cooperative threads included —
    /// never wait for a transaction that may need one of those threads to finish.
    ///
    /// Returns nil when the table must be prepared inside the transaction instead: a table
    /// it refers to was prepared inside it (and is invisible to other connections), the
    /// transaction holds a lock on a table the DDL would lock (the DDL would wait for the
    /// transaction), or no connection is free right now.
    func prepareBeside(_ schema: ModelSchema, _ pin: Pin) throws -> SQLTable? {
        var touched: [String] = []
        var stack = [schema]
        var seen = Set<ObjectIdentifier>()
        while let next = stack.popLast() {
            guard seen.insert(ObjectIdentifier(next)).inserted else { continue }
            if pin.levels.pending(next) != nil { return nil }
            touched.append(next.tableName)
            stack += try SQLForeignKeys.of(next).map(\.parent)
        }
        let names = touched.indices.map { "$\($0 + 1)" }.joined(separator: ", ")
        let held = try pin.connection.query(
            "SELECT count(*)::text FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE l.pid = pg_backend_pid() "
                + "AND c.relname IN (\(names)) AND c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())",
            touched.map { .string($0) }
        ).strings().first
        guard held == "0", let connection = primary.acquireNow() else { return nil }
        defer { primary.release(connection) }
        return try prepareTable(schema, on: connection, levels: nil)
    }

    /// Creates or completes `schema`'s table on `connection` (see
    /// ``SQLTableCatalog/prepare(_:on:dialect:dates:levels:)``), inside the transaction whose
    /// `levels` are given, or in one of its own.
    func prepareTable(_ schema: ModelSchema, on connection: PGConnection, levels: SQLTransactionLevels?) throws -> SQLTable {
        try catalog.prepare(schema, on: connection, dialect: dialect, dates: configuration.dateStorage, levels: levels)
    }
}
