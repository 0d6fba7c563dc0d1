/// Rewrites a condition into forms URL parameters can carry, keeping SQL's three-valued
/// meaning: negations are pushed down to the comparisons (`not (a < 1)` is `a >= 1`,
/// which is also unknown for null), and comparisons with null, which match nothing, are
/// decided here.
enum PredicateRewriter {
    /// The rewritten condition; nil when it matches no row at all (no request is needed).
    enum Result: Equatable {
        case never
        case always
        case condition(QueryPredicate)
    }

    static func rewrite(_ predicate: QueryPredicate) -> Result {
        switch predicate {
        case .compare(_, _, let value) where value.isNull: return .never
        case .isIn(_, let values) where values.isEmpty: return .never
        case .notIn(_, let values) where values.isEmpty: return .always
        case .and(let parts):
            var kept: [QueryPredicate] = []
            for part in parts {
                switch rewrite(part) {
                case .never: return .never
                case .always: continue
                case .condition(let p): kept.append(p)
                }
            }
            return kept.isEmpty ? .always : .condition(kept.count == 1 ? kept[0] : .and(kept))
        case .or(let parts):
            var kept: [QueryPredicate] = []
            for part in parts {
                switch rewrite(part) {
                case .never: continue
                case .always: return .always
                case .condition(let p): kept.append(p)
                }
            }
            return kept.isEmpty ? .never : .condition(kept.count == 1 ? kept[0] : .or(kept))
        case .not(let inner): return negate(inner)
        default: return .condition(predicate)
        }
    }

    /// `not predicate`, pushed down; a part with no negated form stays `not` (the encoder
    /// refuses it).
    private static func negate(_ predicate: QueryPredicate) -> Result {
        switch predicate {
        case .compare(_, _, let value) where value.isNull: return .never  // not unknown is unknown
        case .compare(let column, let op, let value):
            let inverse: ComparisonOperator =
                switch op {
                case .equal: .notEqual
                case .notEqual: .equal
                case .less: .greaterOrEqual
                case .lessOrEqual: .greater
                case .greater: .lessOrEqual
                case .greaterOrEqual: .less
                }
            return .condition(.compare(column: column, inverse, value))
        case .isNull(let column): return .condition(.isNotNull(column: column))
        case .isNotNull(let column): return .condition(.isNull(column: column))
        case .isIn(let column, let values):
            return values.isEmpty ? .always : .condition(.notIn(column: column, values))
        case .notIn(let column, let values):
            // `not (x not in [])` is false even for nulls; otherwise `x in values`.
            return values.isEmpty ? .never : .condition(.isIn(column: column, values))
        case .between(let column, let low, let high):
            return rewrite(.or([.compare(column: column, .less, low), .compare(column: column, .greater, high)]))
        case .and(let parts): return rewrite(.or(parts.map { .not($0) }))
        case .or(let parts): return rewrite(.and(parts.map { .not($0) }))
        case .not(let inner): return rewrite(inner)
        case .text: return .condition(.not(predicate))
        }
    }
}
