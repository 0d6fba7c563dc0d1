import ModelEngine

/// An in-memory store: rows in insertion order, an O(1) id index per model, undo-journal
/// transactions with savepoints, safe to share between threads.
///
/// ```swift
/// import ArrayAdapter
///
/// let store = ArrayAdapter()
/// ModelStore.setDefault(store)
/// try Todo(["name": "walk"]).save()
/// try store.reset()          // empty it (tests, fixtures)
/// ```
///
/// ## Threading
/// Every call takes one lock (a ``StoreLock``); a transaction owns it from start to end,
/// so calls from outside the transaction wait (reads included) until it commits or rolls
/// back: transactions are serialisable and never see each other's uncommitted rows. Calls
/// inside it — from its body, or from any isolation while its ``TransactionHandle`` is
/// active — go in.
///
/// ## Transactions
/// Each level records an undo journal of what it changed, so opening a level is O(1) and
/// rolling back costs O(changes), however large the store.
public final class ArrayAdapter: PersistenceAdapter, @unchecked Sendable {
    // @unchecked Sendable: `tables`, `bySchema`, `lastTable`, `journal`, `history` and `closed` are
    // only read or written while holding `lock` — which is also why their accesses skip
    // the dynamic exclusivity check (two can never overlap; each check cost about 80
    // instructions per call).
    let lock = StoreLock()
    @exclusivity(unchecked) var tables: [String: ArrayTable] = [:]
    @exclusivity(unchecked) var bySchema: [ObjectIdentifier: ArrayTable] = [:]
    @exclusivity(unchecked) var lastTable: ArrayTable?
    @exclusivity(unchecked) var journal: [[Undo]] = []
    /// The change history of the models that keep one (see ``ArrayHistory``).
    @exclusivity(unchecked) package var history = ArrayHistory()
    /// Set by a store that keeps this one's rows elsewhere but not its history (FileAdapter's
    /// archive): a model that keeps history is refused.
    package var refusesHistory = false
    /// Set by ``close()``; every later call throws ``StoreError`` `.closed`. Read and
    /// written with the lock held (FileAdapter sets it while it writes its last save).
    @exclusivity(unchecked) package var closed = false
    /// How the store names itself in errors ("the in-memory store is closed").
    package var label = "in-memory store"

    enum Undo {
        case inserted(table: ArrayTable, id: ModelValue, previousNextID: Int64)
        case updated(table: ArrayTable, slot: Int, old: [ModelValue])
        case deleted(table: ArrayTable, slot: Int, row: [ModelValue])

        var table: ArrayTable {
            switch self {
            case .inserted(let table, _, _), .updated(let table, _, _), .deleted(let table, _, _): table
            }
        }
    }

    /// Creates an empty store.
    public init() {}

    /// Removes every row of every model.
    ///
    /// - Throws: ``StoreError`` `.invalidRequest` inside a transaction.
    public func reset() throws {
        try lock.withLock {
            if closed { throw StoreError.closed(label) }
            guard journal.isEmpty else {
                throw StoreError(.invalidRequest, table: "*", message: "reset() inside a transaction")
            }
            history.clear()
            tables.removeAll()
            bySchema.removeAll()
            lastTable = nil
        }
    }

    /// Creates the schema's table if needed; refuses a second model on the same table name.
    public func prepare(_ schema: ModelSchema) throws {
        try lock.withLock { _ = try table(for: schema) }
    }

    /// Appends a row, assigning the next integer id when the id is nil.
    ///
    /// - Throws: ``StoreError`` `.duplicateID` for an id already stored, `.uniqueViolation`
    ///   for a value a `.unique` column already holds in another row. Nothing is stored.
    /// - Complexity: O(1) amortised.
    public func insert(_ row: [ModelValue], into schema: ModelSchema) throws -> ModelValue {
        try insertRow(row, into: schema)[0]
    }

    /// Inserts like ``insert(_:into:)`` and returns the stored row itself (its id set), so
    /// a saved record can share that row's storage instead of copying its own to take the id.
    public func insertReturningStored(_ row: [ModelValue], into schema: ModelSchema) throws -> (id: ModelValue, stored: [ModelValue]?) {
        let stored = try insertRow(row, into: schema)
        return (stored[0], stored)
    }

    /// Inserts like ``insert(_:into:)``, setting the id in `row` itself; the table keeps
    /// that row, so a row the caller holds alone is stored without a copy. Always nil: the
    /// stored row is `row`. On a throw `row` is unchanged.
    public func insertSettingID(_ row: inout [ModelValue], into schema: ModelSchema) throws -> [ModelValue]? {
        try lock.withLock { try storeRow(&row, into: schema) }
        return nil
    }

    /// Stores `row` (with the next id when its id is nil) and returns it as stored.
    private func insertRow(_ row: [ModelValue], into schema: ModelSchema) throws -> [ModelValue] {
        var row = row
        try lock.withLock { try storeRow(&row, into: schema) }
        return row
    }

    /// Stores `row`, setting the next id when its id is nil; every check runs before `row`
    /// or the table changes. Call holding `lock`.
    private func storeRow(_ row: inout [ModelValue], into schema: ModelSchema) throws {
        let table = try table(for: schema)
        try schema.checkRow(row)
        let previousNextID = table.nextID
        var id = row[0]
        if id.isNull {
            guard schema.idGeneration == .autoIncrement else {
                throw StoreError(.invalidRequest, table: schema.tableName, message: "insert without an id")
            }
            id = .int(previousNextID)
        }
        if table.slot(of: id) != nil {
            throw StoreError(.duplicateID, table: schema.tableName, id: id, message: "a row with this id already exists")
        }
        if !table.uniqueColumns.isEmpty, let column = table.uniqueConflict(row) {
            throw StoreError.uniqueViolation(schema, column: schema.columns[column].name, id: id)
        }
        if case .int(let value) = id, value >= previousNextID {
            table.nextID = value == .max ? value : value + 1
        }
        if row[0].isNull { row[0] = id }
        _ = table.append(row)
        if schema.keepsHistory { history.record(table, id: id, .insert) }
        if !journal.isEmpty { journal[journal.count - 1].append(.inserted(table: table, id: id, previousNextID: previousNextID)) }
    }

    /// Replaces the row with the same id in place (insertion order is kept).
    ///
    /// - Throws: ``StoreError`` `.notFound` for an id not stored, `.uniqueViolation` for a
    ///   value a `.unique` column holds in another row. The row is left as it was.
    /// - Complexity: O(1).
    public func update(_ row: [ModelValue], changedColumns: [Int], in schema: ModelSchema) throws {
        try lock.withLock {
            let table = try table(for: schema)
            try schema.checkRow(row)
            guard let slot = table.slot(of: row[0]), let old = table.row(at: slot) else {
                throw StoreError(.notFound, table: schema.tableName, id: row[0], message: "no row with this id to update")
            }
            if !table.uniqueColumns.isEmpty, let column = table.uniqueConflict(row, replacing: slot) {
                throw StoreError.uniqueViolation(schema, column: schema.columns[column].name, id: row[0])
            }
            if schema.keepsHistory {
                // As SQLite's trigger: an update that changes no value is no change.
                let changed = ArrayHistory.changedColumns(old, row, in: schema)
                if changed.isEmpty { return }
                history.record(table, id: row[0], .update, changed: changed)
            }
            table.replace(at: slot, with: row)
            if !journal.isEmpty { journal[journal.count - 1].append(.updated(table: table, slot: slot, old: old)) }
        }
    }

    /// Removes the row with this id, leaving a tombstone.
    ///
    /// - Complexity: O(1) amortised.
    public func delete(id: ModelValue, from schema: ModelSchema) throws -> Bool {
        try lock.withLock {
            let table = try table(for: schema)
            guard let (slot, row) = table.remove(id: id) else { return false }
            if schema.keepsHistory { history.record(table, id: row[0], .delete) }
            if journal.isEmpty {
                table.compactIfWorthIt()
            } else {
                journal[journal.count - 1].append(.deleted(table: table, slot: slot, row: row))
            }
            return true
        }
    }

    /// The row with this id.
    ///
    /// - Complexity: O(1).
    public func find(id: ModelValue, in schema: ModelSchema) throws -> [ModelValue]? {
        try lock.withLock {
            try table(for: schema).row(id: id)
        }
    }

    /// Rows matching the query, evaluated by ``QueryEngine``.
    ///
    /// - Complexity: O(n), plus O(m log m) to sort m matches.
    /// Writers are serialised (a transaction owns the store), so fetches need no row lock.
    public var rowLockSupport: RowLockSupport { .serialisedWriters }

    public func fetch(_ query: StoreQuery) throws -> [[ModelValue]] {
        try lock.withLock {
            QueryEngine.select(query, from: try table(for: query.schema))
        }
    }

    /// How many rows match.
    ///
    /// - Complexity: O(1) without a predicate, limit or offset; O(n) otherwise.
    public func count(_ query: StoreQuery) throws -> Int {
        try lock.withLock {
            let table = try table(for: query.schema)
            if query.predicate == nil, query.offset == 0, query.limit == nil { return table.live }
            return QueryEngine.count(query, from: table)
        }
    }

    /// Deletes the rows matching the query.
    ///
    /// - Complexity: O(n) to match, O(1) per deleted row.
    public func delete(_ query: StoreQuery) throws -> Int {
        try lock.withLock {
            let ids = QueryEngine.select(query, from: try table(for: query.schema)).map { $0[0] }
            for id in ids { _ = try delete(id: id, from: query.schema) }
            return ids.count
        }
    }

    /// Sets columns on the rows matching the query, journaled like single updates.
    ///
    /// - Throws: ``StoreError`` `.uniqueViolation` when a `.unique` column would hold one
    ///   value in two rows; no row changes then.
    /// - Complexity: O(n) to match, O(columns) per changed row.
    public func update(_ query: StoreQuery, set values: [Int: ModelValue]) throws -> Int {
        try lock.withLock {
            let table = try table(for: query.schema)
            try query.schema.checkUpdate(values)
            let rows = QueryEngine.select(query, from: table)
            if !table.uniqueColumns.isEmpty,
                let column = table.uniqueConflict(setting: values, onSlots: rows.compactMap { table.slot(of: $0[0]) })
            {
                throw StoreError.uniqueViolation(query.schema, column: query.schema.columns[column].name)
            }
            var changed = 0
            for row in rows {
                guard let slot = table.slot(of: row[0]) else { continue }
                var new = row
                for (column, value) in values { new[column] = value }
                if new == row { continue }
                if query.schema.keepsHistory {
                    history.record(table, id: row[0], .update, changed: ArrayHistory.changedColumns(row, new, in: query.schema))
                }
                table.replace(at: slot, with: new)
                if !journal.isEmpty { journal[journal.count - 1].append(.updated(table: table, slot: slot, old: row)) }
                changed += 1
            }
            return changed
        }
    }

    /// Computes the query's aggregate with ``QueryEngine``.
    ///
    /// - Complexity: O(n), plus sorting when the query sorts or groups.
    public func aggregate(_ query: StoreQuery) throws -> [AggregateGroup] {
        try lock.withLock {
            try QueryEngine.aggregate(query, from: try table(for: query.schema))
        }
    }

    /// Closes the store: waits for calls and transactions in flight on other threads (they
    /// hold the lock), then drops every row. Later calls throw ``StoreError`` `.closed`;
    /// closing again does nothing.
    ///
    /// - Throws: ``StoreError`` `.invalidRequest` inside one of this store's transactions.
    public func close() throws {
        try lock.withLock {
            guard journal.isEmpty else {
                throw StoreError(.invalidRequest, table: "", message: "close() inside a transaction")
            }
            closed = true
            tables.removeAll()
            bySchema.removeAll()
            lastTable = nil
        }
    }

    /// Whether ``close()`` has run.
    public var isClosed: Bool { lock.withLock { closed } }

    // MARK: - Internals (call with the lock held)

    func rollBack(_ entries: [Undo]) {
        for entry in entries.reversed() {
            // Each write of a table that keeps history appended one entry.
            if entry.table.schema.keepsHistory { history.undoLast() }
            switch entry {
            case .inserted(let table, let id, let previousNextID):
                table.removeLast(id: id)
                table.nextID = previousNextID
            case .updated(let table, let slot, let old):
                table.replace(at: slot, with: old)
            case .deleted(let table, let slot, let row):
                table.restore(row, at: slot)
            }
        }
    }

    /// The table for a schema, created on first use; a different model claiming the same
    /// table name is refused.
    func table(for schema: ModelSchema) throws -> ArrayTable {
        if closed { throw StoreError.closed(label) }
        if let last = lastTable, last.schema === schema { return last }
        if let table = bySchema[ObjectIdentifier(schema)] {
            lastTable = table
            return table
        }
        let name = schema.tableName
        if let table = tables[name] {
            guard table.schema.columns.map(\.name) == schema.columns.map(\.name) else {
                throw StoreError(
                    .invalidRequest, table: name,
                    message: "table already holds \(table.schema.modelName) rows; \(schema.modelName) needs its own tableName")
            }
            bySchema[ObjectIdentifier(schema)] = table
            lastTable = table
            return table
        }
        try schema.validate()
        if schema.keepsHistory, refusesHistory { throw StoreError.keepsNoHistory(schema, store: label) }
        let table = ArrayTable(schema: schema)
        tables[name] = table
        bySchema[ObjectIdentifier(schema)] = table
        lastTable = table
        return table
    }
}
