import Foundation

/// Query parameters in the style of Parse: the condition as a JSON object in `where`
/// (`{"age": {"$gt": 20}, "name": {"$in": ["Ann", "Bo"]}}`), `order=-age,name`,
/// `limit` and `skip`.
///
/// It expresses comparisons, `in`/`not in` (`$in`/`$nin`), null tests (`$exists`), text
/// matching (`$regex`, with `$options: "i"` for case-insensitive), `and` and `or`; only
/// `not` is refused.
public struct ParseQueryEncoder: RESTQueryEncoder {
    /// An encoder.
    public init() {}

    public func encode(_ query: RESTListQuery) throws(RESTQueryError) -> [URLQueryItem] {
        var items: [URLQueryItem] = []
        if let predicate = query.predicate {
            let object = try Self.object(predicate, query)
            if !object.isEmpty { items.append(URLQueryItem(name: "where", value: ModelJSON.serialize(.dictionary(object)))) }
        }
        if !query.sort.isEmpty {
            var keys: [String] = []
            for key in query.sort { keys.append((key.ascending ? "" : "-") + (try query.key(for: key.column))) }
            items.append(URLQueryItem(name: "order", value: keys.joined(separator: ",")))
        }
        if let limit = query.limit { items.append(URLQueryItem(name: "limit", value: String(limit))) }
        if query.offset > 0 { items.append(URLQueryItem(name: "skip", value: String(query.offset))) }
        return items
    }

    private static let operators: [ComparisonOperator: String] = [
        .equal: "$eq", .notEqual: "$ne", .less: "$lt", .lessOrEqual: "$lte", .greater: "$gt", .greaterOrEqual: "$gte",
    ]

    /// The `where` object of a predicate.
    private static func object(_ predicate: QueryPredicate, _ query: RESTListQuery) throws(RESTQueryError) -> [String: ModelValue] {
        switch predicate {
        case .and(let parts):
            var merged: [String: ModelValue] = [:]
            var separate: [ModelValue] = []
            for part in parts {
                let object = try object(part, query)
                if object.keys.contains(where: { merged[$0] != nil }) {
                    separate.append(.dictionary(object))
                } else {
                    merged.merge(object) { a, _ in a }
                }
            }
            if !separate.isEmpty {
                if let and = merged["$and"], case .array(let list) = and { separate = list + separate }
                merged["$and"] = .array(separate)
            }
            return merged
        case .or(let parts):
            guard !parts.isEmpty else { return ["$or": .array([])] }
            var list: [ModelValue] = []
            for part in parts { list.append(.dictionary(try object(part, query))) }
            return ["$or": .array(list)]
        case .not: throw RESTQueryError(part: "not", reason: "Parse-style conditions have no general negation")
        case .compare(let column, let op, let value):
            guard !value.isNull else { throw RESTQueryError(part: "a comparison with null", reason: "it matches nothing; use isNull") }
            let json = try query.jsonValue(value, column: column)
            let key = try query.key(for: column)
            if op == .equal, case .dictionary = json {
                return [key: .dictionary(["$eq": json])]
            }
            return [key: op == .equal ? json : .dictionary([operators[op] ?? "$eq": json])]
        case .between(let column, let low, let high):
            let key = try query.key(for: column)
            return [
                key: .dictionary([
                    "$gte": try query.jsonValue(low, column: column), "$lte": try query.jsonValue(high, column: column),
                ])
            ]
        case .isIn(let column, let values), .notIn(let column, let values):
            var list: [ModelValue] = []
            for value in values { list.append(try query.jsonValue(value, column: column)) }
            let name = if case .isIn = predicate { "$in" } else { "$nin" }
            return [try query.key(for: column): .dictionary([name: .array(list)])]
        case .isNull(let column): return [try query.key(for: column): .dictionary(["$exists": .bool(false)])]
        case .isNotNull(let column): return [try query.key(for: column): .dictionary(["$exists": .bool(true)])]
        case .text(let column, let op, let text, let caseInsensitive):
            var regex: String
            switch op {
            case .contains: regex = NSRegularExpression.escapedPattern(for: text)
            case .beginsWith: regex = "^" + NSRegularExpression.escapedPattern(for: text)
            case .endsWith: regex = NSRegularExpression.escapedPattern(for: text) + "$"
            case .like: regex = "^" + likePattern(text) + "$"
            }
            if regex.isEmpty { regex = "^" }
            var operand: [String: ModelValue] = ["$regex": .string(regex)]
            if caseInsensitive { operand["$options"] = .string("i") }
            return [try query.key(for: column): .dictionary(operand)]
        }
    }

    /// A LIKE pattern (`%`, `_`, `\` escapes) as a regular expression body.
    private static func likePattern(_ pattern: String) -> String {
        var out = ""
        var escaped = false
        for c in pattern {
            if escaped {
                out += NSRegularExpression.escapedPattern(for: String(c))
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else if c == "%" {
                out += ".*"
            } else if c == "_" {
                out += "."
            } else {
                out += NSRegularExpression.escapedPattern(for: String(c))
            }
        }
        return out
    }
}
