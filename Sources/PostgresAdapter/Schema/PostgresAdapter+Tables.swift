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
    func prepareBeside(_ schema: ModelSchema, _ pin: Pin) throws -> PostgresTable? {
        var touched: [String] = []
        var stack = [schema]
        var seen = Set<ObjectIdentifier>()
        while let next = stack.popLast() {
            guard seen.insert(ObjectIdentifier(next)).inserted else { continue }
            if pin.pending(ObjectIdentifier(next)) != nil { return nil }
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
        return try prepareTable(schema, connection, pin: nil, visiting: [])
    }

    /// Creates or completes `schema`'s table on `connection` (after the tables its foreign
    /// keys refer to), inside a transaction — or a savepoint of the open one — holding an
    /// advisory lock on the table's name, so concurrent processes do not race on
    /// `CREATE TABLE`.
    func prepareTable(_ schema: ModelSchema, _ connection: PGConnection, pin: Pin?, visiting: Set<ObjectIdentifier>) throws
        -> PostgresTable
    {
        let key = ObjectIdentifier(schema)
        if let table = catalog.withLock({ $0.tables[key] }) { return table }
        if let table = pin?.pending(key) { return table }
        if let owner = catalog.withLock({ $0.owners[schema.tableName] }), owner != key { throw StoreError.tableTaken(by: schema) }
        var table = try PostgresTable(schema, dates: configuration.dateStorage)
        for parent in table.foreignKeys.map(\.parent) where parent !== schema && !visiting.contains(ObjectIdentifier(parent)) {
            _ = try prepareTable(parent, connection, pin: pin, visiting: visiting.union([key]))
        }
        try connection.execute(pin == nil ? "BEGIN" : "SAVEPOINT swiftmodel_prepare")
        do {
            _ = try connection.query(
                "SELECT pg_advisory_xact_lock(hashtextextended($1, 7186453920571))", [.string(schema.tableName)])
            let existing = Set(
                try connection.query(
                    "SELECT column_name::text FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1",
                    [.string(schema.tableName)]
                ).strings())
            for sql in table.ddl.preparation(existing: existing) { try connection.execute(sql) }
            let quotedTable = table.table
            table.primaryKeyConstraint = try connection.query(
                "SELECT conname::text FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'p'", [.string(quotedTable)]
            ).strings().first
            if table.generatesIDs {
                table.idSequence = try connection.query(
                    "SELECT pg_get_serial_sequence($1, $2)", [.string(quotedTable), .string(schema.columns[0].name)]
                ).strings().first
            }
            try connection.execute(pin == nil ? "COMMIT" : "RELEASE swiftmodel_prepare")
        } catch {
            _ = try? connection.execute(pin == nil ? "ROLLBACK" : "ROLLBACK TO swiftmodel_prepare; RELEASE swiftmodel_prepare")
            throw error
        }
        if let pin, !pin.preparedByLevel.isEmpty {
            pin.preparedByLevel[pin.preparedByLevel.count - 1][key] = table
        } else {
            publish([table])
        }
        return table
    }

    /// Makes prepared tables visible to every thread (after their DDL committed).
    func publish(_ tables: [PostgresTable]) {
        guard !tables.isEmpty else { return }
        catalog.withLock { catalog in
            for table in tables {
                let key = ObjectIdentifier(table.schema)
                catalog.tables[key] = table
                catalog.owners[table.schema.tableName] = key
            }
        }
    }
}
