import ModelSQL

extension PostgresAdapter {
    /// Creates or completes `schema`'s table on `connection` (after the tables its foreign
    /// keys refer to), inside a transaction — or a savepoint of the open one — holding an
    /// advisory lock, so concurrent processes do not race on `CREATE TABLE`.
    func prepareTable(_ schema: ModelSchema, _ connection: PGConnection, pin: Pin?, visiting: Set<ObjectIdentifier>) throws
        -> PostgresTable
    {
        let key = ObjectIdentifier(schema)
        if let table = catalog.withLock({ $0.tables[key] }) { return table }
        if let table = pin?.pending(key) { return table }
        if let owner = catalog.withLock({ $0.owners[schema.tableName] }), owner != key {
            throw StoreError(
                .invalidRequest, table: schema.tableName,
                message: "the table already stores another model; \(schema.modelName) needs its own tableName")
        }
        var table = try PostgresTable(schema, dates: configuration.dateStorage)
        for parent in table.foreignKeys.map(\.parent) where parent !== schema && !visiting.contains(ObjectIdentifier(parent)) {
            _ = try prepareTable(parent, connection, pin: pin, visiting: visiting.union([key]))
        }
        try connection.execute(pin == nil ? "BEGIN" : "SAVEPOINT swiftmodel_prepare")
        do {
            try connection.execute("SELECT pg_advisory_xact_lock(7186453920571)")
            let existing = Set(
                try connection.query(
                    "SELECT column_name::text FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1",
                    [.string(schema.tableName)]
                ).strings())
            if existing.isEmpty {
                try connection.execute(table.createTableSQL)
            } else {
                for index in schema.columns.indices where !existing.contains(schema.columns[index].name) {
                    try connection.execute("ALTER TABLE \(table.table) ADD COLUMN \(table.columnDefinition(index, forAdding: true))")
                }
                if let sequence = table.sequenceColumnDefinition, !existing.contains(PostgresDialect.sequenceColumn) {
                    try connection.execute("ALTER TABLE \(table.table) ADD COLUMN \(sequence)")
                }
            }
            for sql in table.indexSQL { try connection.execute(sql) }
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
