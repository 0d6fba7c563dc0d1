extension Query {
    /// The sum of a numeric column over the selected records: `.int` for integer and bool
    /// columns, `.double` otherwise; `.null` when there are no non-null values.
    public func sum(_ column: String) throws -> ModelValue { try single(.sum, column) }
    /// The average of a numeric column (`.double`), or `.null` with no values.
    public func average(_ column: String) throws -> ModelValue { try single(.average, column) }
    /// The least non-null value of a column, or `.null`.
    public func min(_ column: String) throws -> ModelValue { try single(.min, column) }
    /// The greatest non-null value of a column, or `.null`.
    public func max(_ column: String) throws -> ModelValue { try single(.max, column) }

    /// The typed sum of a numeric column; nil when there are no values.
    ///
    /// ```swift
    /// try Person.where(\.city == "Paris").sum(\.score)     // Double?
    /// ```
    public func sum<V: ColumnValue>(_ keyPath: KeyPath<M, V>) throws -> V? {
        V(modelValue: try single(.sum, try ColumnResolver<M>().slot(keyPath)))
    }
    /// The average of a numeric column; nil when there are no values.
    public func average<V: ColumnValue>(_ keyPath: KeyPath<M, V>) throws -> Double? {
        Double(modelValue: try single(.average, try ColumnResolver<M>().slot(keyPath)))
    }
    /// The least non-null value; nil when there is none.
    public func min<V: ColumnValue>(_ keyPath: KeyPath<M, V>) throws -> V? {
        let value = try single(.min, try ColumnResolver<M>().slot(keyPath))
        return value.isNull ? nil : V(modelValue: value)
    }
    /// The greatest non-null value; nil when there is none.
    public func max<V: ColumnValue>(_ keyPath: KeyPath<M, V>) throws -> V? {
        let value = try single(.max, try ColumnResolver<M>().slot(keyPath))
        return value.isNull ? nil : V(modelValue: value)
    }

    /// The typed sum of an optional numeric column, flattened: nil when there are no
    /// non-nil values (never `Double??`).
    ///
    /// ```swift
    /// try Person.query().sum(\.bonus)      // bonus: Double? → Double?
    /// ```
    public func sum<V: ColumnValue>(_ keyPath: KeyPath<M, V?>) throws -> V? {
        V(modelValue: try single(.sum, try ColumnResolver<M>().slot(keyPath)))
    }
    /// The least non-nil value of an optional column; nil when there is none.
    public func min<V: ColumnValue>(_ keyPath: KeyPath<M, V?>) throws -> V? {
        V(modelValue: try single(.min, try ColumnResolver<M>().slot(keyPath)))
    }
    /// The greatest non-nil value of an optional column; nil when there is none.
    public func max<V: ColumnValue>(_ keyPath: KeyPath<M, V?>) throws -> V? {
        V(modelValue: try single(.max, try ColumnResolver<M>().slot(keyPath)))
    }

    /// Groups the selected records by columns, for grouped aggregates.
    ///
    /// ```swift
    /// try Person.query().group(by: "city").count()      // [AggregateGroup]: key → count
    /// try Person.query().group(by: "city").sum("score")
    /// ```
    public func group(by columns: String...) -> GroupedQuery<M> { group(by: columns) }

    /// ``group(by:)-(String...)`` with the column names in an array.
    public func group(by columns: [String]) -> GroupedQuery<M> {
        GroupedQuery(query: self, columns: Result { () throws(QueryError) in
            let resolver = ColumnResolver<M>()
            var slots: [Int] = []
            for column in columns { slots.append(try resolver.slot(column)) }
            if slots.isEmpty { throw argument("group(by:) needs at least one column") }
            return slots
        })
    }

    private func single(_ function: Aggregate.Function, _ column: String) throws -> ModelValue {
        try singleSteps(function, column).run()
    }

    private func single(_ function: Aggregate.Function, _ slot: Int) throws -> ModelValue {
        try aggregate(Aggregate(function, column: slot)).first?.value ?? .null
    }

    func aggregate(_ aggregate: Aggregate) throws -> [AggregateGroup] { try aggregateSteps(aggregate).run() }

    /// The steps of an aggregate over the selected records (the Swift side resolved first).
    func aggregateSteps(_ aggregate: Aggregate) throws -> StoreSteps<[AggregateGroup]> {
        if let column = aggregate.column { try Self.check(aggregate.function, on: column) }
        return try resolvedByIDSteps().flatMap { resolved in
            var (query, store) = resolved
            query.aggregate = aggregate
            return .call(.aggregate(query), on: store) { .done(try $0.groups(for: query)) }
        }
    }

    /// The steps of one aggregate's value (null over no rows).
    func singleSteps(_ function: Aggregate.Function, _ column: String) throws -> StoreSteps<ModelValue> {
        try aggregateSteps(Aggregate(function, column: ColumnResolver<M>().slot(column))).map { $0.first?.value ?? .null }
    }

    /// Sums and averages need numbers; min and max need a scalar column.
    static func check(_ function: Aggregate.Function, on slot: Int) throws(QueryError) {
        let column = M.schema.columns[slot]
        let allowed: Set<ColumnType>
        switch function {
        case .count: return
        case .sum, .average: allowed = [.int, .double, .bool]
        case .min, .max: allowed = [.int, .double, .bool, .string, .text, .date, .uuid, .data]
        }
        guard allowed.contains(column.type) else {
            throw QueryError(
                .invalidOperator, model: M.schema.modelName, column: column.name,
                message: "\(function.rawValue) does not apply to a \(column.type) column")
        }
    }
}

/// A query grouped by columns, waiting for its aggregate. Groups come back ordered by
/// their keys ascending (nulls first).
public struct GroupedQuery<M: ModelProtocol>: Sendable {
    let query: Query<M>
    let columns: Result<[Int], QueryError>

    /// Records per group.
    public func count() throws -> [AggregateGroup] { try run(.count, nil) }
    /// Non-null values of `column` per group.
    public func count(_ column: String) throws -> [AggregateGroup] { try run(.count, column) }
    /// Sum of `column` per group (`.null` for a group with no values).
    public func sum(_ column: String) throws -> [AggregateGroup] { try run(.sum, column) }
    /// Average of `column` per group.
    public func average(_ column: String) throws -> [AggregateGroup] { try run(.average, column) }
    /// Least value of `column` per group.
    public func min(_ column: String) throws -> [AggregateGroup] { try run(.min, column) }
    /// Greatest value of `column` per group.
    public func max(_ column: String) throws -> [AggregateGroup] { try run(.max, column) }

    private func run(_ function: Aggregate.Function, _ column: String?) throws -> [AggregateGroup] {
        let slot = try column.map { name throws(QueryError) in try ColumnResolver<M>().slot(name) }
        return try query.aggregate(Aggregate(function, column: slot, groupBy: try columns.get()))
    }
}
