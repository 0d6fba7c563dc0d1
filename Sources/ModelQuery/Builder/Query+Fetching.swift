import ModelEngine

extension Query {
    /// The compiled query and the store it runs on. A query that only counts, aggregates,
    /// deletes or updates (`fetching: false`) drops `lockForUpdate()`: only fetches lock
    /// (an `UPDATE` or `DELETE` locks what it changes anyway), so such a query runs on a
    /// store without row locks too; a fetch there is refused rather than run unlocked.
    func prepared(fetching: Bool = true) throws -> (StoreQuery, any PersistenceAdapter) {
        var query = try storeQuery()
        let (_, store) = try M.context(adapter)
        if !fetching { query.rowLock = nil }
        if query.rowLock != nil, store.rowLockSupport == .unsupported {
            throw StoreError(
                .invalidRequest, table: query.schema.tableName,
                message: "lockForUpdate(): \(type(of: store)) cannot lock rows, and a fetch without the lock would not be safe")
        }
        return (query, store)
    }

    /// Records the whole query selects, applying Swift filters, comparator and window.
    func records() throws -> [M] { try recordsSteps().run() }

    /// The steps of ``records()``: the fetch, the Swift side, the eager loads.
    func recordsSteps() throws -> StoreSteps<[M]> {
        let (query, store) = try prepared()
        guard runsInSwift else { return fetchSteps(query, store, everyRow: query.selectsEveryRow) }
        return .fetch(storeSide(query), on: store) { rows in
            try self.loadedSteps(self.swiftSide(M.records(from: rows, schema: query.schema, store: store)), store)
        }
    }

    /// The records of `query`, eager loads run (`everyRow`: see ``EagerOwners``).
    func fetchSteps(_ query: StoreQuery, _ store: any PersistenceAdapter, everyRow: Bool = false) -> StoreSteps<[M]> {
        // Without eager loads the reply needs nothing of the query builder (no copy of it
        // goes into the step).
        guard !includes.isEmpty else {
            return .fetch(query, on: store) { rows in .done(try M.records(from: rows, schema: query.schema, store: store)) }
        }
        return .fetch(query, on: store) { rows in
            try self.loadedSteps(M.records(from: rows, schema: query.schema, store: store), store, everyRow: everyRow)
        }
    }

    /// For a query that runs partly in Swift, what the store selects: the conditions,
    /// without the window, unsorted when a comparator orders.
    func storeSide(_ query: StoreQuery) -> StoreQuery {
        var query = query
        query.limit = nil
        query.offset = 0
        if comparator != nil { query.sort = [] }
        return query
    }

    /// The Swift filters, comparator and window applied to the records of ``storeSide(_:)``.
    func swiftSide(_ fetched: [M]) -> [M] {
        var records = fetched
        if !filters.isEmpty { records = records.filter { record in filters.allSatisfy { $0(record) } } }
        if let comparator {
            // Stable: ties keep the store order.
            records = records.enumerated().sorted { a, b in
                if comparator(a.element, b.element) { return true }
                if comparator(b.element, a.element) { return false }
                return a.offset < b.offset
            }.map(\.element)
        }
        return QueryEngine.window(records, offset: offsetCount, limit: limitCount)
    }

    /// The eager loads on fetched records, one after another (`everyRow`: they are every
    /// stored row of their table, see ``EagerOwners``).
    func loadedSteps(_ records: [M], _ store: any PersistenceAdapter, everyRow: Bool = false) throws -> StoreSteps<[M]> {
        guard !includes.isEmpty else { return .done(records) }
        let owners = EagerOwners(records: records, everyRow: everyRow)
        var steps = StoreSteps<Void>.none
        for include in includes { steps = try steps.flatMap { try include.load(owners, store) } }
        return try steps.map { records }
    }

    /// For Swift-evaluated queries, a store query selecting exactly the final records by
    /// id (so counts, aggregates and batch operations see what `all()` returns).
    func resolvedByIDSteps() throws -> StoreSteps<(StoreQuery, any PersistenceAdapter)> {
        let (query, store) = try prepared(fetching: false)
        guard runsInSwift else { return .done((query, store)) }
        return try recordsSteps().map { records in
            (StoreQuery(schema: query.schema, predicate: .isIn(column: 0, records.map { $0._value(at: 0) })), store)
        }
    }

    // MARK: Terminals, once for both drivers

    /// The steps of ``first(_:)``.
    func firstSteps(_ count: Int) throws -> StoreSteps<[M]> {
        guard count >= 0 else { throw argument("first(\(count)) needs a count of at least 0") }
        if runsInSwift { return try recordsSteps().map { Array($0.prefix(count)) } }
        var (query, store) = try prepared()
        query.limit = Swift.min(query.limit ?? count, count)
        return fetchSteps(query, store)
    }

    /// The steps of ``last(_:)``: a count, then the tail window.
    func lastSteps(_ count: Int) throws -> StoreSteps<[M]> {
        guard count >= 0 else { throw argument("last(\(count)) needs a count of at least 0") }
        if runsInSwift { return try recordsSteps().map { Array($0.suffix(count)) } }
        let (query, store) = try prepared()
        return .count(query, on: store) { total in
            var tail = query
            tail.offset += Swift.max(0, total - count)
            tail.limit = Swift.min(count, total)
            return self.fetchSteps(tail, store)
        }
    }

    /// The steps of ``count()``.
    func countSteps() throws -> StoreSteps<Int> {
        if runsInSwift { return try recordsSteps().map(\.count) }
        let (query, store) = try prepared(fetching: false)
        return .count(query, on: store) { .done($0) }
    }

    /// The steps of ``exists()``.
    func existsSteps() throws -> StoreSteps<Bool> {
        if runsInSwift { return try recordsSteps().map { !$0.isEmpty } }
        var (query, store) = try prepared(fetching: false)
        if query.limit != 0 { query.limit = 1 }
        return .count(query, on: store) { .done($0 > 0) }
    }

    /// The steps of ``page(_:per:)``: a count, then the page's window.
    func pageSteps(_ number: Int, per size: Int) throws -> StoreSteps<Page<M>> {
        let skip = try pageSkip(number, per: size)
        if runsInSwift {
            return try recordsSteps().map { all in
                Page(items: Array(all.dropFirst(skip).prefix(size)), number: number, size: size, total: all.count)
            }
        }
        let (query, store) = try prepared()
        return .count(query, on: store) { total in
            guard skip < total else { return .done(Page(items: [], number: number, size: size, total: total)) }
            var window = query
            window.offset += skip
            window.limit = Swift.min(size, total - skip)
            return try self.fetchSteps(window, store).map { Page(items: $0, number: number, size: size, total: total) }
        }
    }

    /// The steps of ``pluck(_:)-(String)``: one column's stored values in query order.
    func pluckSteps(slot: Int) throws -> StoreSteps<[ModelValue]> {
        if runsInSwift { return try recordsSteps().map { $0.map { $0._value(at: slot) } } }
        let (query, store) = try prepared()
        return .fetch(query, on: store) { .done($0.map { $0[slot] }) }
    }

    // MARK: Terminals

    /// Every record the query selects.
    public func all() throws -> [M] { try records() }

    /// The first record, or nil.
    public func first() throws -> M? { try first(1).first }

    /// The first `count` records.
    public func first(_ count: Int) throws -> [M] { try firstSteps(count).run() }

    /// The last record, or nil.
    public func last() throws -> M? { try last(1).last }

    /// The last `count` records, in query order.
    ///
    /// Runs a count, then fetches the tail window (two store calls; no full fetch).
    public func last(_ count: Int) throws -> [M] { try lastSteps(count).run() }

    /// How many records the query selects (limit and offset apply).
    public func count() throws -> Int { try countSteps().run() }

    /// Whether the query selects any record.
    public func exists() throws -> Bool { try existsSteps().run() }

    /// One page of results, numbered from 1, with the total and page count.
    ///
    /// ```swift
    /// let page = try Todo.query().order(by: "name").page(2, per: 20)
    /// page.items.count       // up to 20
/// page.total             // every match
/// page.pageCount
/// page.hasNext
    /// ```
    public func page(_ number: Int, per size: Int) throws -> Page<M> { try pageSteps(number, per: size).run() }

    /// How many records come before page `number` of `size`, checked.
    func pageSkip(_ number: Int, per size: Int) throws -> Int {
        guard number >= 1 else { throw argument("page numbers start at 1 (got \(number))") }
        guard size >= 1 else { throw argument("a page holds at least 1 record (got \(size))") }
        let skip = (number - 1).multipliedReportingOverflow(by: size)
        guard !skip.overflow else { throw argument("page \(number) of \(size) is out of range") }
        return skip.partialValue
    }

    /// The stored values of one column for the selected records, in query order, without
    /// building records.
    public func pluck(_ column: String) throws -> [ModelValue] {
        try pluckSteps(slot: ColumnResolver<M>().slot(column)).run()
    }

    /// The typed values of one column for the selected records.
    public func pluck<V: ColumnValue>(_ keyPath: KeyPath<M, V>) throws -> [V] {
        try pluckSteps(slot: ColumnResolver<M>().slot(keyPath)).run().compactMap { V(modelValue: $0) }
    }

    func argument(_ message: String) -> QueryError {
        QueryError(.invalidArgument, model: M.schema.modelName, message: message)
    }
}

/// One page of a query's results.
public struct Page<M: ModelProtocol> {
    /// The records on this page.
    public let items: [M]
    /// The page number (from 1).
    public let number: Int
    /// The page size asked for.
    public let size: Int
    /// How many records the whole query selects.
    public let total: Int

    /// How many pages the results fill (0 when there are none).
    public var pageCount: Int { (total + size - 1) / size }
    /// Whether a later page has records.
    public var hasNext: Bool { number < pageCount }
    /// Whether this is not the first page.
    public var hasPrevious: Bool { number > 1 }
}

extension StoreQuery {
    /// Whether the query selects every stored row of its table: no condition, no window
    /// (eager loads then read children by "key is set", see ``EagerOwners``).
    var selectsEveryRow: Bool { predicate == nil && limit == nil && offset == 0 }
}
