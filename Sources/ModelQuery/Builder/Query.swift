/// A lazy, chainable query over model `M`: conditions, order, limit and offset are
/// collected without touching the store; a terminal call (`all()`, `first()`, `count()`,
/// `sum(_:)`, `deleteAll()`, …) compiles it to one ``StoreQuery`` and runs it once.
///
/// ```swift
/// let todos = try Todo.where("assigned_to").eq("bob").and("location").contains("seattle").all()
/// let top = try Person.where(.between(\.age, 30, 40) && \.city == "Paris")
///     .order(by: \.score, .descending)
///     .limit(100)
///     .all()
/// ```
///
/// Queries are values: each call returns a new query, so scopes can be stored and
/// combined:
///
/// ```swift
/// extension Person {
///     static let seasoned = Person.where(\.age >= 40)
///     static func livingIn(_ city: String) -> Query<Person> { Person.where(\.city == city) }
/// }
/// try Person.seasoned.merging(Person.livingIn("Paris")).count()
/// ```
public struct Query<M: ModelProtocol>: Sendable {
    var predicate: QueryPredicate?
    var sort: [SortKey] = []
    var limitCount: Int?
    var offsetCount = 0
    var rowLock: RowLock?
    var problem: QueryError?
    var adapter: (any PersistenceAdapter)?
    var filters: [@Sendable (M) -> Bool] = []
    var comparator: (@Sendable (M, M) -> Bool)?
    var includes: [EagerInclude<M>] = []
    /// Tables the eager loads read besides the model's own (what an observation watches).
    var includedTables: [String] = []

    /// Every record of `M`, in store order (the start of every chain).
    public init() {}

    // MARK: Conditions

    /// Adds a condition (joined with AND).
    public func `where`(_ condition: QueryCondition<M>) -> Query<M> {
        adding(condition.built, or: false)
    }

    /// Adds a condition joined with OR: `(everything so far) OR condition`.
    public func or(_ condition: QueryCondition<M>) -> Query<M> {
        adding(condition.built, or: true)
    }

    /// Starts a condition on a column by stored name (joined with AND):
    /// `.where("name").eq("bob")`.
    public func `where`(_ column: String) -> ColumnCondition<M> { ColumnCondition(self, column, or: false) }

    /// Same as ``where(_:)-(String)``: `.where("a").eq(1).and("b").gt(2)`.
    public func and(_ column: String) -> ColumnCondition<M> { ColumnCondition(self, column, or: false) }

    /// Starts a condition joined with OR: `(everything so far) OR column …`.
    public func or(_ column: String) -> ColumnCondition<M> { ColumnCondition(self, column, or: true) }

    /// Negates everything so far (SQL `NOT`).
    public func negated() -> Query<M> {
        var query = self
        query.predicate = .not(predicate ?? .and([]))
        return query
    }

    func adding(_ built: Result<QueryPredicate, QueryError>, or: Bool) -> Query<M> {
        var query = self
        switch built {
        case .failure(let error):
            if query.problem == nil { query.problem = error }
        case .success(let condition):
            if let existing = predicate {
                query.predicate = or ? .or([existing, condition]) : .and(Self.parts(existing) + [condition])
            } else {
                query.predicate = condition
            }
        }
        return query
    }

    private static func parts(_ predicate: QueryPredicate) -> [QueryPredicate] {
        if case .and(let parts) = predicate { return parts }
        return [predicate]
    }

    /// Keeps only records for which `filter` returns `true`, evaluated in Swift after the
    /// store has applied every other condition. Limit, offset and pages then also apply
    /// in Swift. Cost on SQL adapters: every row the rest of the query matches is loaded.
    ///
    /// ```swift
    /// try Todo.where(\.done == false).filter { $0.name.contains("dog") }.all()
    /// ```
    public func filter(_ filter: @escaping @Sendable (M) -> Bool) -> Query<M> {
        var query = self
        query.filters.append(filter)
        return query
    }

    /// Combines another query (a scope): conditions joined with AND, its sort keys after
    /// these, its limit, offset and store when it sets them, its Swift filters after these.
    public func merging(_ other: Query<M>) -> Query<M> {
        var query = self
        if let problem = other.problem, query.problem == nil { query.problem = problem }
        if let condition = other.predicate { query = query.adding(.success(condition), or: false) }
        query.sort += other.sort
        if let limit = other.limitCount { query.limitCount = limit }
        if other.offsetCount != 0 { query.offsetCount = other.offsetCount }
        if let adapter = other.adapter { query.adapter = adapter }
        query.filters += other.filters
        query.includes += other.includes
        if let comparator = other.comparator { query.comparator = comparator }
        return query
    }

    // MARK: Order and window

    /// Adds a sort key by stored column name (after earlier keys). Ties keep store order.
    /// Nulls sort first ascending and last descending.
    public func order(by column: String, _ direction: SortDirection = .ascending) -> Query<M> {
        let slot = Result { () throws(QueryError) in try ColumnResolver<M>().slot(column) }
        return ordering(slot, direction)
    }

    /// Adds a sort key by key path.
    public func order<V>(by keyPath: KeyPath<M, V>, _ direction: SortDirection = .ascending) -> Query<M> {
        let slot = Result { () throws(QueryError) in try ColumnResolver<M>().slot(keyPath) }
        return ordering(slot, direction)
    }

    private func ordering(_ slot: Result<Int, QueryError>, _ direction: SortDirection) -> Query<M> {
        var query = self
        switch slot {
        case .success(let slot): query.sort.append(SortKey(column: slot, ascending: direction == .ascending))
        case .failure(let error): if query.problem == nil { query.problem = error }
        }
        return query
    }

    /// Sorts with a comparator, in Swift (in-memory only: every matching row is loaded,
    /// then sorted stably; store sort keys are ignored). Limit and offset then apply in
    /// Swift.
    public func sorted(by areInIncreasingOrder: @escaping @Sendable (M, M) -> Bool) -> Query<M> {
        var query = self
        query.comparator = areInIncreasingOrder
        return query
    }

    /// At most `count` records.
    public func limit(_ count: Int) -> Query<M> {
        var query = self
        if count < 0, query.problem == nil {
            query.problem = QueryError(.invalidArgument, model: M.schema.modelName, message: "limit \(count) is negative")
        }
        query.limitCount = count
        return query
    }

    /// Skips the first `count` records.
    public func offset(_ count: Int) -> Query<M> {
        var query = self
        if count < 0, query.problem == nil {
            query.problem = QueryError(.invalidArgument, model: M.schema.modelName, message: "offset \(count) is negative")
        }
        query.offsetCount = count
        return query
    }

    /// Locks the rows this query fetches until the enclosing transaction ends
    /// (`SELECT … FOR UPDATE`), so a read-modify-write is safe under `READ COMMITTED`:
    ///
    /// ```swift
    /// // inside a transaction: ten open todos no other worker holds, locked until it ends
    /// let batch = try Todo.where(\.done == false).lockForUpdate(.skipLocked).limit(10).all()
    /// ```
    ///
    /// `wait` says what to do about rows another transaction holds: wait (default), leave
    /// them out (`.skipLocked`, for work queues) or fail at once (`.noWait`). Outside a
    /// transaction the lock lasts only as long as the fetch. Adapters with serialised
    /// writers (SQLite, ArrayAdapter, FileAdapter) need no lock and accept it; one that
    /// cannot lock rows (RESTAdapter) refuses the fetch with ``StoreError`` `.invalidRequest`
    /// (see ``RowLockSupport``). Counts, deletes and updates ignore it.
    public func lockForUpdate(_ wait: RowLock.Wait = .wait) -> Query<M> {
        var query = self
        query.rowLock = RowLock(wait: wait)
        return query
    }

    /// Runs against this store instead of the resolved one.
    public func using(_ adapter: any PersistenceAdapter) -> Query<M> {
        var query = self
        query.adapter = adapter
        return query
    }

    // MARK: The query value

    /// The compiled query value adapters receive, or the first problem.
    public func storeQuery() throws(QueryError) -> StoreQuery {
        if let problem { throw problem }
        return StoreQuery(
            schema: M.schema, predicate: predicate, sort: sort, limit: limitCount, offset: offsetCount, rowLock: rowLock)
    }

    /// Whether any part runs in Swift (filters or a comparator).
    var runsInSwift: Bool { !filters.isEmpty || comparator != nil }
}

/// Ascending or descending.
public enum SortDirection: Sendable, Hashable {
    case ascending, descending
}
