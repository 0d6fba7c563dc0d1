/// Builds predicates on one resolved column, casting values: the shared core of the
/// key-path operators and the MotionModel-style `where("column").eq(value)` chain.
struct ConditionBuilder<M: ModelProtocol> {
    let resolver: ColumnResolver<M>
    let slot: Int

    func compare(_ op: ComparisonOperator, _ value: ModelValue) throws(QueryError) -> QueryPredicate {
        if value.isNull {
            switch op {
            case .equal: return .isNull(column: slot)
            case .notEqual: return .isNotNull(column: slot)
            default:
                throw QueryError(
                    .invalidValue, model: resolver.schema.modelName, column: resolver.schema.columns[slot].name,
                    value: value, message: "nil can only be compared with == or != (IS NULL / IS NOT NULL)")
            }
        }
        return .compare(column: slot, op, try resolver.cast(value, for: slot))
    }

    func between(_ low: ModelValue, _ high: ModelValue) throws(QueryError) -> QueryPredicate {
        guard !low.isNull, !high.isNull else {
            throw QueryError(
                .invalidValue, model: resolver.schema.modelName, column: resolver.schema.columns[slot].name,
                message: "between needs two non-nil bounds")
        }
        return .between(column: slot, try resolver.cast(low, for: slot), try resolver.cast(high, for: slot))
    }

    func isIn(_ values: [ModelValue]) throws(QueryError) -> QueryPredicate {
        .isIn(column: slot, try castAll(values))
    }

    func notIn(_ values: [ModelValue]) throws(QueryError) -> QueryPredicate {
        .notIn(column: slot, try castAll(values))
    }

    func text(_ op: TextOperator, _ text: String, _ caseInsensitive: Bool) throws(QueryError) -> QueryPredicate {
        try resolver.requireText(slot, for: "\(op)")
        return .text(column: slot, op, text, caseInsensitive: caseInsensitive)
    }

    private func castAll(_ values: [ModelValue]) throws(QueryError) -> [ModelValue] {
        var out: [ModelValue] = []
        out.reserveCapacity(values.count)
        for value in values { out.append(try resolver.cast(value, for: slot)) }
        return out
    }
}
