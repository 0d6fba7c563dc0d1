import SwiftModelCSQLite

extension SQLiteAdapter {
    /// Inserts a row with one cached `INSERT`; a null id of an auto-increment model becomes
    /// the next id (`AUTOINCREMENT`: ids are never reused, as in every adapter).
    ///
    /// - Throws: ``StoreError`` `.duplicateID` for an id already stored, `.uniqueViolation`
    ///   for a value a `.unique` column already holds (the ``SQLiteError`` attached);
    ///   ``SQLiteError`` for other constraint violations (foreign key, not null). Nothing
    ///   is stored on failure.
    public func insert(_ row: [ModelValue], into schema: ModelSchema) throws -> ModelValue {
        let mapping = try mapping(for: schema)
        try schema.checkRow(row)
        if row[0].isNull, schema.idGeneration != .autoIncrement {
            throw StoreError(.invalidRequest, table: schema.tableName, message: "insert without an id")
        }
        return try writing { db in
            let statements = db.statements(for: schema)
            let statement = try statements.insert ?? db.prepare(mapping.insertSQL)
            statements.insert = statement
            defer { statement.reset() }
            do {
                try statement.bind(mapping.stored(row))
                _ = try statement.step()
            } catch let error as SQLiteError {
                if error.extendedCode == ExtendedCode.primaryKey {
                    throw StoreError(.duplicateID, table: schema.tableName, id: row[0], message: "a row with this id already exists")
                }
                throw error.with(arguments: row).storeError(schema, id: row[0])
            }
            return row[0].isNull ? .int(db.lastInsertRowID) : row[0]
        }
    }

    /// Writes the changed columns of the row with id `row[0]` (all columns when none are
    /// listed), with one cached `UPDATE` per set of columns.
    ///
    /// - Throws: ``StoreError`` `.notFound` when no row has that id, `.uniqueViolation` for
    ///   a value a `.unique` column holds in another row; ``SQLiteError`` for other
    ///   constraint violations (the row is left as it was).
    public func update(_ row: [ModelValue], changedColumns: [Int], in schema: ModelSchema) throws {
        let mapping = try mapping(for: schema)
        try schema.checkRow(row)
        var columns = changedColumns.filter { $0 > 0 && $0 < row.count }
        if columns.isEmpty { columns = Array(1..<row.count) }
        try writing { db in
            let statements = db.statements(for: schema)
            let statement: SQLiteStatement
            if let cached = statements.updates[columns] {
                statement = cached
            } else {
                statement = try db.prepare(mapping.updateSQL(columns))
                if statements.updates.count < 64 { statements.updates[columns] = statement }
            }
            defer { statement.reset() }
            do {
                var index: Int32 = 1
                for column in columns {
                    try statement.bind(mapping.stored(row[column], column), at: index)
                    index += 1
                }
                try statement.bind(row[0], at: index)
                _ = try statement.step()
            } catch let error as SQLiteError {
                throw error.with(arguments: columns.map { row[$0] } + [row[0]]).storeError(schema, id: row[0])
            }
            if db.changes == 0 {
                throw StoreError(.notFound, table: schema.tableName, id: row[0], message: "no row with this id to update")
            }
        }
    }

    /// Deletes the row with this id. The database applies the `ON DELETE` action of
    /// foreign keys that point at it (see `Docs/SQLite.md`).
    ///
    /// - Throws: ``SQLiteError`` `.foreignKeyConstraint` when a `.restrict` relation still
    ///   has children.
    public func delete(id: ModelValue, from schema: ModelSchema) throws -> Bool {
        let mapping = try mapping(for: schema)
        return try writing { db in
            let statements = db.statements(for: schema)
            let statement = try statements.deleteByID ?? db.prepare(mapping.deleteSQL)
            statements.deleteByID = statement
            defer { statement.reset() }
            do {
                try statement.bind(id, at: 1)
                _ = try statement.step()
            } catch let error as SQLiteError {
                throw error.with(arguments: [id])
            }
            return db.changes > 0
        }
    }

    /// The row with this id, by primary key.
    public func find(id: ModelValue, in schema: ModelSchema) throws -> [ModelValue]? {
        let mapping = try mapping(for: schema)
        return try reading { db in
            let statements = db.statements(for: schema)
            let statement = try statements.find ?? db.prepare(mapping.findSQL)
            statements.find = statement
            defer { statement.reset() }
            try statement.bind(id, at: 1)
            return try statement.step() ? statement.row(mapping.layout) : nil
        }
    }

}

extension SQLiteConnection {
    /// The hot-path statements of `schema`'s table on this connection.
    @inline(__always) func statements(for schema: ModelSchema) -> TableStatements {
        if let statements = tables[ObjectIdentifier(schema)] { return statements }
        let statements = TableStatements()
        tables[ObjectIdentifier(schema)] = statements
        return statements
    }
}

extension SQLiteError {
    /// A `UNIQUE` index violation as the ``StoreError`` `.uniqueViolation` every adapter
    /// throws (this error attached), naming the column from SQLite's message
    /// (`UNIQUE constraint failed: table.column`); any other error as it is.
    func storeError(_ schema: ModelSchema, id: ModelValue? = nil) -> any Error {
        guard extendedCode == ExtendedCode.unique else { return self }
        let prefix = "UNIQUE constraint failed: \(schema.tableName)."
        let named = message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : nil
        let column = schema.columns.first { $0.name == named }?.name
        return StoreError.uniqueViolation(schema, column: column, id: id, underlying: self)
    }

    /// The same error, remembering the bound values (kept out of `description`).
    func with(arguments: [ModelValue]) -> SQLiteError {
        SQLiteError(code: code, extendedCode: extendedCode, message: message, sql: sql, arguments: arguments)
    }
}
