/// Whole-table access for stores built on ArrayAdapter (FileAdapter loads and saves
/// through these): consistent snapshots and all-or-nothing replacement.
extension ArrayAdapter {
    /// One table's committed contents, shared copy-on-write (taking it is O(1)).
    package struct TableContents: Sendable {
        /// The model the rows belong to.
        package let schema: ModelSchema
        /// Rows in store order, `nil` for deleted slots.
        package let slots: [[ModelValue]?]
        /// How many slots hold a row.
        package let count: Int
        /// The next integer id the table would assign.
        package let nextID: Int64
    }

    /// Runs `body` holding the store's lock: no other thread reads or writes meanwhile.
    package func withLock<R>(_ body: () throws -> R) rethrows -> R {
        try lock.withLock(body)
    }

    /// Every table's contents, sorted by table name. Call outside transactions for a
    /// committed state.
    package func contents() -> [TableContents] {
        lock.withLock {
            tables.values.sorted { $0.schema.tableName < $1.schema.tableName }.map(Self.contents)
        }
    }

    /// One table's contents (empty when the model was never stored).
    package func contents(of schema: ModelSchema) throws -> TableContents {
        try lock.withLock { Self.contents(of: try table(for: schema)) }
    }

    private static func contents(of table: ArrayTable) -> TableContents {
        TableContents(schema: table.schema, slots: table.slots, count: table.live, nextID: table.nextID)
    }

    /// Replaces the named tables' contents with `rows` (ids set, rows already cast to the
    /// schema), all or nothing; with `clearingOthers`, every other table is emptied too.
    /// No hooks, no timestamps, no journal: this is a load. Inside a transaction it may
    /// only fill tables that do not exist yet (nothing a rollback would need to restore).
    ///
    /// - Throws: ``StoreError`` `.invalidRequest` inside a transaction otherwise, for a row of the
    ///   wrong width or a nil id; `.duplicateID` when two rows share an id,
    ///   `.uniqueViolation` when two share a value of a `.unique` column. Nothing changes
    ///   then.
    package func replaceContents(_ replacements: [(schema: ModelSchema, rows: [[ModelValue]], nextID: Int64)], clearingOthers: Bool)
        throws
    {
        try lock.withLock {
            if closed { throw StoreError.closed(label) }
            guard journal.isEmpty || (!clearingOthers && replacements.allSatisfy { tables[$0.schema.tableName] == nil })
            else {
                throw StoreError(.invalidRequest, table: "*", message: "cannot load inside a transaction")
            }
            var built: [ArrayTable] = []
            for (schema, rows, nextID) in replacements {
                try schema.validate()
                let table = ArrayTable(schema: schema)
                var next = max(nextID, 1)
                for row in rows {
                    try schema.checkRow(row)
                    if row[0].isNull {
                        throw StoreError(.invalidRequest, table: schema.tableName, message: "a loaded row has no id")
                    }
                    if table.slot(of: row[0]) != nil {
                        throw StoreError(.duplicateID, table: schema.tableName, id: row[0], message: "two loaded rows share this id")
                    }
                    if !table.uniqueColumns.isEmpty, let column = table.uniqueConflict(row) {
                        throw StoreError.uniqueViolation(schema, column: schema.columns[column].name, id: row[0])
                    }
                    if case .int(let id) = row[0], id >= next { next = id == .max ? id : id + 1 }
                    _ = table.append(row)
                }
                table.nextID = next
                built.append(table)
            }
            if clearingOthers { tables.removeAll() }
            for table in built {
                tables[table.schema.tableName] = table
            }
            bySchema.removeAll()
            lastTable = nil
        }
    }
}
