/// The MotionModel-style half of a condition: a column waiting for its operator.
///
/// ```swift
/// Todo.where("assigned_to").eq("bob").and("location").contains("seattle")
/// Todo.where("priority").between(1, 3).or("done").eq(true)
/// Todo.where("name").not.beginsWith("tmp")
/// ```
public struct ColumnCondition<M: ModelProtocol>: Sendable {
    let query: Query<M>
    let column: String
    let joinsWithOr: Bool
    let negate: Bool

    init(_ query: Query<M>, _ column: String, or: Bool, negate: Bool = false) {
        self.query = query
        self.column = column
        self.joinsWithOr = or
        self.negate = negate
    }

    /// Negates the operator that follows.
    public var not: ColumnCondition<M> { ColumnCondition(query, column, or: joinsWithOr, negate: !negate) }

    private func finish(_ make: (ConditionBuilder<M>) throws(QueryError) -> QueryPredicate) -> Query<M> {
        let built = Result { () throws(QueryError) -> QueryPredicate in
            let resolver = ColumnResolver<M>()
            let predicate = try make(ConditionBuilder(resolver: resolver, slot: try resolver.slot(column)))
            return negate ? .not(predicate) : predicate
        }
        return query.adding(built, or: joinsWithOr)
    }

    /// `= value` (`eq(nil)` is `IS NULL`).
    public func eq(_ value: ModelValue) -> Query<M> { finish { b throws(QueryError) in try b.compare(.equal, value) } }
    /// `<> value` (`ne(nil)` is `IS NOT NULL`).
    public func ne(_ value: ModelValue) -> Query<M> { finish { b throws(QueryError) in try b.compare(.notEqual, value) } }
    /// `< value`.
    public func lt(_ value: ModelValue) -> Query<M> { finish { b throws(QueryError) in try b.compare(.less, value) } }
    /// `<= value`.
    public func lte(_ value: ModelValue) -> Query<M> {
        finish { b throws(QueryError) in try b.compare(.lessOrEqual, value) }
    }
    /// `> value`.
    public func gt(_ value: ModelValue) -> Query<M> { finish { b throws(QueryError) in try b.compare(.greater, value) } }
    /// `>= value`.
    public func gte(_ value: ModelValue) -> Query<M> {
        finish { b throws(QueryError) in try b.compare(.greaterOrEqual, value) }
    }
    /// `IS NULL`.
    public func isNull() -> Query<M> { finish { b in .isNull(column: b.slot) } }
    /// `IS NOT NULL`.
    public func isNotNull() -> Query<M> { finish { b in .isNotNull(column: b.slot) } }
    /// `IN (values)`; an empty list matches nothing.
    public func `in`(_ values: [ModelValue]) -> Query<M> { finish { b throws(QueryError) in try b.isIn(values) } }
    /// `NOT IN (values)`; an empty list matches everything.
    public func notIn(_ values: [ModelValue]) -> Query<M> { finish { b throws(QueryError) in try b.notIn(values) } }
    /// `BETWEEN low AND high` (inclusive).
    public func between(_ low: ModelValue, _ high: ModelValue) -> Query<M> {
        finish { b throws(QueryError) in try b.between(low, high) }
    }
    /// Contains `text` literally.
    public func contains(_ text: String, caseInsensitive: Bool = false) -> Query<M> {
        finish { b throws(QueryError) in try b.text(.contains, text, caseInsensitive) }
    }
    /// Starts with `text` literally.
    public func beginsWith(_ text: String, caseInsensitive: Bool = false) -> Query<M> {
        finish { b throws(QueryError) in try b.text(.beginsWith, text, caseInsensitive) }
    }
    /// Ends with `text` literally.
    public func endsWith(_ text: String, caseInsensitive: Bool = false) -> Query<M> {
        finish { b throws(QueryError) in try b.text(.endsWith, text, caseInsensitive) }
    }
    /// Matches a `LIKE` pattern (`%`, `_`, `\` escapes).
    public func like(_ pattern: String, caseInsensitive: Bool = false) -> Query<M> {
        finish { b throws(QueryError) in try b.text(.like, pattern, caseInsensitive) }
    }
}
