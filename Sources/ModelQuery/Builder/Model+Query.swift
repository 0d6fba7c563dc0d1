extension ModelProtocol {
    /// A query over every record, to chain on.
    ///
    /// ```swift
    /// try Todo.query().order(by: "due_date").limit(10).all()
    /// ```
    public static func query(in adapter: (any PersistenceAdapter)? = nil) -> Query<Self> {
        let query = Query<Self>()
        return adapter.map { query.using($0) } ?? query
    }

    /// Records matching a condition: `Person.where(\.age > 30 && \.city == "Paris")`.
    public static func `where`(_ condition: QueryCondition<Self>) -> Query<Self> { Query().where(condition) }

    /// Starts a MotionModel-style condition: `Todo.where("assigned_to").eq("bob")`.
    public static func `where`(_ column: String) -> ColumnCondition<Self> { Query().where(column) }

    /// All records sorted by a column.
    public static func order(by column: String, _ direction: SortDirection = .ascending) -> Query<Self> {
        Query().order(by: column, direction)
    }

    /// All records sorted by a key path.
    public static func order<V>(by keyPath: KeyPath<Self, V>, _ direction: SortDirection = .ascending) -> Query<Self> {
        Query().order(by: keyPath, direction)
    }

    /// The records for which `filter` returns `true`, evaluated in Swift over every stored
    /// record (a full load on SQL adapters; prefer `where` when the condition can be a
    /// query).
    ///
    /// ```swift
    /// let dogs = try Todo.find { $0.name.contains("dog") }
    /// ```
    public static func find(
        in adapter: (any PersistenceAdapter)? = nil, _ filter: @escaping @Sendable (Self) -> Bool
    ) throws -> [Self] {
        try query(in: adapter).filter(filter).all()
    }

    /// The first record in store order, or nil.
    public static func first(in adapter: (any PersistenceAdapter)? = nil) throws -> Self? {
        try query(in: adapter).first()
    }

    /// The last record in store order, or nil.
    public static func last(in adapter: (any PersistenceAdapter)? = nil) throws -> Self? {
        try query(in: adapter).last()
    }
}
