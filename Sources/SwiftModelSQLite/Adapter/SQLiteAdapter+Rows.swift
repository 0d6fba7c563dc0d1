import ModelSQL

extension SQLiteAdapter {
    /// Inserts a row with one cached `INSERT`; a null id of an auto-increment model becomes
    /// the next id (`AUTOINCREMENT`: ids are never reused, as in every adapter).
    ///
    /// - Throws: ``StoreError`` `.duplicateID` for an id already stored, `.uniqueViolation`
    ///   for a value a `.unique` column already holds (the ``SQLiteError`` attached);
    ///   ``SQLiteError`` for other constraint violations (foreign key, not null). Nothing
    ///   is stored on failure.
    public func insert(_ row: [ModelValue], into schema: ModelSchema) throws -> ModelValue {
        let table = try table(for: schema)
        return try table.insert(row, violations: { SQLiteConnection.violation($0, in: table) }) {
            try writing { try $0.insert(row, into: table) }
        }
    }

    /// Writes the changed columns of the row with id `row[0]` (all columns when none are
    /// listed), with one cached `UPDATE` per set of columns.
    ///
    /// - Throws: ``StoreError`` `.notFound` when no row has that id, `.uniqueViolation` for
    ///   a value a `.unique` column holds in another row; ``SQLiteError`` for other
    ///   constraint violations (the row is left as it was).
    public func update(_ row: [ModelValue], changedColumns: [Int], in schema: ModelSchema) throws {
        let table = try table(for: schema)
        try table.update(row, changedColumns: changedColumns, violations: { SQLiteConnection.violation($0, in: table) }) { columns in
            try writing { try $0.update(row, columns: columns, in: table) }
        }
    }

    /// Deletes the row with this id. The database applies the `ON DELETE` action of
    /// foreign keys that point at it (see `Docs/SQLite.md`).
    ///
    /// - Throws: ``SQLiteError`` `.foreignKeyConstraint` when a `.restrict` relation still
    ///   has children.
    public func delete(id: ModelValue, from schema: ModelSchema) throws -> Bool {
        let table = try table(for: schema)
        return try writing { try $0.delete(id: id, from: table) > 0 }
    }

    /// The row with this id, by primary key.
    public func find(id: ModelValue, in schema: ModelSchema) throws -> [ModelValue]? {
        let table = try table(for: schema)
        return try reading { try $0.find(id: id, in: table) }
    }
}
