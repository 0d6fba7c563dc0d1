import ModelCore

/// The record operations every SQL adapter shares, around the write its connection does:
/// the row checks, `.duplicateID` / `.uniqueViolation` from the key a write violated, and
/// `.notFound`. Not generic, so an adapter's hot path calls them without specialising
/// anything across modules; `violations` is the connection's classifier
/// (``SQLConnection/violation(_:in:)``).
extension SQLTable {
    /// Checks `row` for an insert, runs `write`, and maps a key violation.
    ///
    /// - Throws: ``StoreError`` `.invalidRequest` for a row that does not fit the schema or a
    ///   null id of a model whose ids are not generated; `.duplicateID` for an id already
    ///   stored; `.uniqueViolation` for a value a `.unique` column already holds; the
    ///   connection's error otherwise. Nothing is stored on failure.
    package func insert(
        _ row: [ModelValue], violations: (any Error) -> SQLKeyViolation?, _ write: () throws -> ModelValue
    ) throws -> ModelValue {
        try schema.checkRow(row)
        if row[0].isNull, !generatesIDs {
            throw StoreError(.invalidRequest, table: schema.tableName, message: "insert without an id")
        }
        return try mappingViolations(id: row[0], violations, write)
    }

    /// Checks `row` for an update of `changedColumns` (all columns when none are listed),
    /// runs `write` with the columns to set, and maps a key violation; no row changed is
    /// `.notFound`.
    ///
    /// - Throws: ``StoreError`` `.notFound` when no row has that id, `.uniqueViolation` for
    ///   a value a `.unique` column holds in another row; the connection's error otherwise
    ///   (the row is left as it was).
    package func update(
        _ row: [ModelValue], changedColumns: [Int], violations: (any Error) -> SQLKeyViolation?,
        _ write: ([Int]) throws -> Int
    ) throws {
        try schema.checkRow(row)
        var columns = changedColumns.filter { $0 > 0 && $0 < row.count }
        if columns.isEmpty { columns = Array(1..<row.count) }
        let changed = try mappingViolations(id: row[0], violations) { try write(columns) }
        if changed == 0 {
            throw StoreError(.notFound, table: schema.tableName, id: row[0], message: "no row with this id to update")
        }
    }

    /// Runs `body`, turning a key violation `violations` finds in its error into the
    /// ``StoreError`` every adapter throws: `.duplicateID` (`id` already stored) or
    /// `.uniqueViolation` naming the column (the connection's error attached).
    package func mappingViolations<R>(
        id: ModelValue?, _ violations: (any Error) -> SQLKeyViolation?, _ body: () throws -> R
    ) throws -> R {
        do {
            return try body()
        } catch {
            switch violations(error) {
            case .primaryKey?:
                throw StoreError(.duplicateID, table: schema.tableName, id: id, message: "a row with this id already exists")
            case .unique(let column)?:
                throw StoreError.uniqueViolation(schema, column: column, id: id, underlying: error)
            case nil:
                throw error
            }
        }
    }
}
