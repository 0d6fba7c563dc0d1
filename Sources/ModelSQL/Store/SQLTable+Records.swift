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
        try checkInsert(row)
        return try mappingViolations(id: row[0], violations, write)
    }

    /// ``insert(_:violations:_:)`` with an asynchronous write.
    package func insert(
        _ row: [ModelValue], violations: (any Error) -> SQLKeyViolation?, _ write: () async throws -> ModelValue
    ) async throws -> ModelValue {
        try checkInsert(row)
        do {
            return try await write()
        } catch {
            throw mapped(error, id: row[0], violations(error))
        }
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
        let columns = try columnsToUpdate(row, changedColumns)
        let changed = try mappingViolations(id: row[0], violations) { try write(columns) }
        if changed == 0 { throw notFound(row[0]) }
    }

    /// ``update(_:changedColumns:violations:_:)`` with an asynchronous write.
    package func update(
        _ row: [ModelValue], changedColumns: [Int], violations: (any Error) -> SQLKeyViolation?,
        _ write: ([Int]) async throws -> Int
    ) async throws {
        let columns = try columnsToUpdate(row, changedColumns)
        let changed: Int
        do {
            changed = try await write(columns)
        } catch {
            throw mapped(error, id: row[0], violations(error))
        }
        if changed == 0 { throw notFound(row[0]) }
    }

    /// Runs `body`, turning a key violation `violations` finds in its error into the
    /// ``StoreError`` every adapter throws (see ``mapped(_:id:_:)``).
    package func mappingViolations<R>(
        id: ModelValue?, _ violations: (any Error) -> SQLKeyViolation?, _ body: () throws -> R
    ) throws -> R {
        do {
            return try body()
        } catch {
            throw mapped(error, id: id, violations(error))
        }
    }

    /// `error` as every adapter reports `violation`: `.duplicateID` (`id` already stored)
    /// or `.uniqueViolation` naming the column (the connection's error attached); `error`
    /// itself when it violated no key.
    package func mapped(_ error: any Error, id: ModelValue?, _ violation: SQLKeyViolation?) -> any Error {
        switch violation {
        case .primaryKey?:
            StoreError(.duplicateID, table: schema.tableName, id: id, message: "a row with this id already exists")
        case .unique(let column)?:
            StoreError.uniqueViolation(schema, column: column, id: id, underlying: error)
        case nil:
            error
        }
    }

    /// Throws when `row` cannot be inserted: it does not fit the schema, or its id is null
    /// and the database does not generate ids.
    private func checkInsert(_ row: [ModelValue]) throws {
        try schema.checkRow(row)
        if row[0].isNull, !generatesIDs {
            throw StoreError(.invalidRequest, table: schema.tableName, message: "insert without an id")
        }
    }

    /// The columns an update of `row` sets: the changed ones (never the id), or all.
    private func columnsToUpdate(_ row: [ModelValue], _ changedColumns: [Int]) throws -> [Int] {
        let columns: [Int]
        if !changedColumns.isEmpty, changedColumns.allSatisfy({ $0 > 0 && $0 < row.count }) {
            // The caller's list as it is when every column is one to write (the usual case:
            // no copy, and a connection finds its cached statement by that list).
            columns = changedColumns
        } else {
            let valid = changedColumns.filter { $0 > 0 && $0 < row.count }
            columns = valid.isEmpty ? Array(1..<Swift.max(row.count, 1)) : valid
        }
        // Only the columns written reach the database, so only they are checked (every
        // column cost about 250 instructions an update of one; that one, about 135).
        try schema.checkRow(row, writing: columns)
        return columns
    }

    private func notFound(_ id: ModelValue) -> StoreError {
        StoreError(.notFound, table: schema.tableName, id: id, message: "no row with this id to update")
    }
}
