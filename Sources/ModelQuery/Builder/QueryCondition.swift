/// A condition on model `M`'s rows, built from key paths or column names and combined
/// with `&&`, `||` and `!`.
///
/// ```swift
/// Person.where(\.age > 30 && \.city == "Paris")
/// Person.where(.between(\.age, 30, 40) || .contains(\.name, "ann", caseInsensitive: true))
/// Person.where(!(\.email == nil))
/// ```
///
/// Values are cast to the column's type as assignment would cast them; a problem (unknown
/// column, uncastable value) is kept and thrown when the query runs.
public struct QueryCondition<M: ModelProtocol>: Sendable {
    let built: Result<QueryPredicate, QueryError>

    init(_ built: Result<QueryPredicate, QueryError>) { self.built = built }

    init(_ make: (ColumnResolver<M>) throws(QueryError) -> QueryPredicate) {
        do {
            built = .success(try make(ColumnResolver<M>()))
        } catch {
            built = .failure(error)
        }
    }

    /// A raw predicate over row indexes (for adapters and tools; not checked).
    public init(predicate: QueryPredicate) { built = .success(predicate) }

    /// The predicate, or the first problem.
    public func predicate() throws(QueryError) -> QueryPredicate { try built.get() }

    static func combine(_ a: Self, _ b: Self, _ join: ([QueryPredicate]) -> QueryPredicate) -> Self {
        switch (a.built, b.built) {
        case (.failure(let e), _), (_, .failure(let e)): return Self(.failure(e))
        case (.success(let x), .success(let y)): return Self(.success(join(flatten(x, y, join))))
        }
    }

    /// Keeps `and`/`or` trees flat: `a && b && c` is one `and` of three.
    private static func flatten(_ x: QueryPredicate, _ y: QueryPredicate, _ join: ([QueryPredicate]) -> QueryPredicate)
        -> [QueryPredicate]
    {
        var parts: [QueryPredicate] = []
        let isAnd: Bool = if case .and = join([]) { true } else { false }
        for p in [x, y] {
            switch p {
            case .and(let inner) where isAnd: parts += inner
            case .or(let inner) where !isAnd: parts += inner
            default: parts.append(p)
            }
        }
        return parts
    }
}

// MARK: Combining

/// Both conditions hold.
public func && <M>(lhs: QueryCondition<M>, rhs: QueryCondition<M>) -> QueryCondition<M> {
    .combine(lhs, rhs, QueryPredicate.and)
}

/// Either condition holds.
public func || <M>(lhs: QueryCondition<M>, rhs: QueryCondition<M>) -> QueryCondition<M> {
    .combine(lhs, rhs, QueryPredicate.or)
}

/// The condition does not hold (SQL `NOT`: unknown stays unknown, so rows whose column is
/// null match neither `c` nor `!c`).
public prefix func ! <M>(condition: QueryCondition<M>) -> QueryCondition<M> {
    QueryCondition(condition.built.map { .not($0) })
}

// MARK: Comparisons on key paths

/// `column = value`; `== nil` is `IS NULL`.
public func == <M, V: ColumnValue>(lhs: KeyPath<M, V>, rhs: V) -> QueryCondition<M> {
    .compare(lhs, .equal, rhs.modelValue)
}

/// `column <> value`; `!= nil` is `IS NOT NULL`.
public func != <M, V: ColumnValue>(lhs: KeyPath<M, V>, rhs: V) -> QueryCondition<M> {
    .compare(lhs, .notEqual, rhs.modelValue)
}

/// `column < value`.
public func < <M, V: ColumnValue>(lhs: KeyPath<M, V>, rhs: V) -> QueryCondition<M> {
    .compare(lhs, .less, rhs.modelValue)
}

/// `column <= value`.
public func <= <M, V: ColumnValue>(lhs: KeyPath<M, V>, rhs: V) -> QueryCondition<M> {
    .compare(lhs, .lessOrEqual, rhs.modelValue)
}

/// `column > value`.
public func > <M, V: ColumnValue>(lhs: KeyPath<M, V>, rhs: V) -> QueryCondition<M> {
    .compare(lhs, .greater, rhs.modelValue)
}

/// `column >= value`.
public func >= <M, V: ColumnValue>(lhs: KeyPath<M, V>, rhs: V) -> QueryCondition<M> {
    .compare(lhs, .greaterOrEqual, rhs.modelValue)
}

extension QueryCondition {
    static func compare<V>(_ keyPath: KeyPath<M, V>, _ op: ComparisonOperator, _ value: ModelValue) -> Self {
        Self { r throws(QueryError) in try ConditionBuilder(resolver: r, slot: try r.slot(keyPath)).compare(op, value) }
    }

    static func onColumn<V>(_ keyPath: KeyPath<M, V>, _ make: (ConditionBuilder<M>) throws(QueryError) -> QueryPredicate)
        -> Self
    {
        Self { r throws(QueryError) in try make(ConditionBuilder(resolver: r, slot: try r.slot(keyPath))) }
    }

    /// `column BETWEEN low AND high` (inclusive).
    public static func between<V: ColumnValue>(_ keyPath: KeyPath<M, V>, _ low: V, _ high: V) -> Self {
        onColumn(keyPath) { b throws(QueryError) in try b.between(low.modelValue, high.modelValue) }
    }

    /// `column IN (values)`; an empty list matches nothing.
    public static func `in`<V: ColumnValue>(_ keyPath: KeyPath<M, V>, _ values: [V]) -> Self {
        onColumn(keyPath) { b throws(QueryError) in try b.isIn(values.map(\.modelValue)) }
    }

    /// `column NOT IN (values)`; an empty list matches everything.
    public static func notIn<V: ColumnValue>(_ keyPath: KeyPath<M, V>, _ values: [V]) -> Self {
        onColumn(keyPath) { b throws(QueryError) in try b.notIn(values.map(\.modelValue)) }
    }

    /// `column IS NULL`.
    public static func isNull<V: ColumnValue>(_ keyPath: KeyPath<M, V>) -> Self {
        onColumn(keyPath) { b in .isNull(column: b.slot) }
    }

    /// `column IS NOT NULL`.
    public static func isNotNull<V: ColumnValue>(_ keyPath: KeyPath<M, V>) -> Self {
        onColumn(keyPath) { b in .isNotNull(column: b.slot) }
    }

    /// The string column contains `text` (taken literally).
    public static func contains<V: ColumnValue>(_ keyPath: KeyPath<M, V>, _ text: String, caseInsensitive: Bool = false)
        -> Self
    {
        onColumn(keyPath) { b throws(QueryError) in try b.text(.contains, text, caseInsensitive) }
    }

    /// The string column starts with `text` (taken literally).
    public static func beginsWith<V: ColumnValue>(_ keyPath: KeyPath<M, V>, _ text: String, caseInsensitive: Bool = false)
        -> Self
    {
        onColumn(keyPath) { b throws(QueryError) in try b.text(.beginsWith, text, caseInsensitive) }
    }

    /// The string column ends with `text` (taken literally).
    public static func endsWith<V: ColumnValue>(_ keyPath: KeyPath<M, V>, _ text: String, caseInsensitive: Bool = false)
        -> Self
    {
        onColumn(keyPath) { b throws(QueryError) in try b.text(.endsWith, text, caseInsensitive) }
    }

    /// The string column matches a `LIKE` pattern: `%` any run, `_` one character, `\`
    /// escapes (see ``TextOperator/escapeLike(_:)`` for literal input).
    public static func like<V: ColumnValue>(_ keyPath: KeyPath<M, V>, _ pattern: String, caseInsensitive: Bool = false)
        -> Self
    {
        onColumn(keyPath) { b throws(QueryError) in try b.text(.like, pattern, caseInsensitive) }
    }
}
