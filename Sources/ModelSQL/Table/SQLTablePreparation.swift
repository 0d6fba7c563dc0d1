import ModelCore

extension SQLTableCatalog {
    /// Creates or completes `schema`'s table on `connection` — after the tables its foreign
    /// keys refer to — and returns it: `CREATE TABLE IF NOT EXISTS`, `ADD COLUMN` for each
    /// declared column the table lacks, then the indexes (``SQLTableDDL/preparation(existing:)``).
    ///
    /// The steps run in a transaction of their own (`BEGIN … COMMIT`), or in a savepoint
    /// when the connection is inside one, holding the connection's preparation lock
    /// (``SQLConnection/lockForPreparation(ofTable:)``) so that processes preparing the same
    /// table take turns; a failure undoes them and is rethrown. The table is published in
    /// this catalog at once, or — prepared inside a transaction whose `levels` are open —
    /// kept on them until it commits.
    ///
    /// A model that keeps history (``ModelProtocol/keepsHistory``) gets its history
    /// triggers in the same steps (``SQLSchemaDialect/historyPreparation(_:)``).
    ///
    /// - Throws: ``StoreError`` `.invalidRequest` when another schema owns the table name,
    ///   or for a model that keeps history on a database that keeps none;
    ///   the schema's validation errors; the connection's errors.
    package func prepare<Connection: SQLConnection, Dialect: SQLSchemaDialect>(
        _ schema: ModelSchema, on connection: Connection, dialect: Dialect, dates: DateStorage?,
        levels: SQLTransactionLevels?
    ) throws -> SQLTable {
        try prepare(schema, connection, dialect, dates, levels, visiting: [])
    }

    private func prepare<Connection: SQLConnection, Dialect: SQLSchemaDialect>(
        _ schema: ModelSchema, _ connection: Connection, _ dialect: Dialect, _ dates: DateStorage?,
        _ levels: SQLTransactionLevels?, visiting: Set<ObjectIdentifier>
    ) throws -> SQLTable {
        if let table = table(for: schema) ?? levels?.pending(schema) { return table }
        try checkOwner(of: schema)
        let draft = try SQLTable(schema, dialect, dates: dates)
        guard let history = dialect.historyPreparation(schema) else { throw StoreError.keepsNoHistory(schema, store: String(describing: Dialect.self).replacingOccurrences(of: "Dialect", with: "")) }
        let key = ObjectIdentifier(schema)
        for parent in draft.foreignKeys.map(\.parent) where parent !== schema && !visiting.contains(ObjectIdentifier(parent)) {
            _ = try prepare(parent, connection, dialect, dates, levels, visiting: visiting.union([key]))
        }
        let nested = connection.isInTransaction
        try connection.executeScript(nested ? "SAVEPOINT swiftmodel_prepare" : "BEGIN")
        let table: SQLTable
        do {
            try connection.lockForPreparation(ofTable: schema.tableName)
            let existing = try connection.columnNames(ofTable: schema.tableName)
            for sql in draft.ddl(dialect).preparation(existing: existing) + history { try connection.executeScript(sql) }
            table = draft.with(try connection.facts(of: draft))
            try connection.executeScript(nested ? "RELEASE SAVEPOINT swiftmodel_prepare" : "COMMIT")
        } catch {
            try? connection.executeScript(
                nested ? "ROLLBACK TO SAVEPOINT swiftmodel_prepare; RELEASE SAVEPOINT swiftmodel_prepare" : "ROLLBACK")
            throw error
        }
        if levels?.add(table) != true { publish([table]) }
        return table
    }
}
