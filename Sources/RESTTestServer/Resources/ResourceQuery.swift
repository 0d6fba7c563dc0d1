import Foundation
import ModelCore

/// A list request's conditions, read from query parameters in either of the two styles
/// RESTAdapter ships encoders for: plain (`age=30`, `age_gt=30`, repeated keys for "in",
/// `sort=-age,name`, `limit`/`offset` or `page`/`per_page`) and Parse-style (`where=` a
/// JSON object with `$gt`, `$in`, `$exists`, `$regex`, `$or`…, `order=`, `limit`, `skip`).
struct ResourceQuery {
    /// A condition that could not be read: the server answers 400 with it.
    struct Invalid: Error { let message: String }

    indirect enum Condition {
        case compare(String, ComparisonOperator, ModelValue)
        case isIn(String, [ModelValue], negated: Bool)
        case exists(String, Bool)
        case regex(String, NSRegularExpression)
        case all([Condition])
        case any([Condition])
    }

    var conditions: [Condition] = []
    var sort: [(key: String, ascending: Bool)] = []
    var limit: Int?
    var offset = 0
    var page: Int?
    var perPage: Int?

    static let suffixes: [(String, ComparisonOperator)] = [
        ("_gte", .greaterOrEqual), ("_lte", .lessOrEqual), ("_gt", .greater), ("_lt", .less), ("_ne", .notEqual),
    ]

    init(_ parameters: [(name: String, value: String)]) throws(Invalid) {
        var equal: [String: [ModelValue]] = [:]
        var order: [String] = []
        for (name, value) in parameters {
            switch name {
            case "where": conditions.append(try Self.parseWhere(value))
            case "sort", "order":
                for part in value.split(separator: ",") where !part.isEmpty {
                    if part.hasPrefix("-") { sort.append((String(part.dropFirst()), false)) } else { sort.append((String(part), true)) }
                }
            case "limit", "per_page", "offset", "skip", "page":
                guard let number = Int(value), number >= 0 else { throw Invalid(message: "\(name) must be a whole number") }
                switch name {
                case "limit": limit = number
                case "per_page": perPage = number
                case "page": page = max(1, number)
                default: offset = number
                }
            default:
                if let (suffix, op) = Self.suffixes.first(where: { name.hasSuffix($0.0) && name.count > $0.0.count }) {
                    conditions.append(.compare(String(name.dropLast(suffix.count)), op, .string(value)))
                } else {
                    if equal[name] == nil { order.append(name) }
                    equal[name, default: []].append(.string(value))
                }
            }
        }
        for name in order {
            guard let values = equal[name] else { continue }
            conditions.append(values.count == 1 ? .compare(name, .equal, values[0]) : .isIn(name, values, negated: false))
        }
    }

    // MARK: Parse-style where

    private static func parseWhere(_ text: String) throws(Invalid) -> Condition {
        guard let value = try? ModelJSON.parse(text), case .dictionary(let object) = value else {
            throw Invalid(message: "where is not a JSON object")
        }
        return try condition(object)
    }

    private static func condition(_ object: [String: ModelValue]) throws(Invalid) -> Condition {
        var parts: [Condition] = []
        for key in object.keys.sorted() {
            guard let value = object[key] else { continue }
            switch key {
            case "$or", "$and":
                guard case .array(let list) = value else { throw Invalid(message: "\(key) needs an array") }
                var inner: [Condition] = []
                for element in list {
                    guard case .dictionary(let sub) = element else { throw Invalid(message: "\(key) needs objects") }
                    inner.append(try condition(sub))
                }
                parts.append(key == "$or" ? .any(inner) : .all(inner))
            default:
                if case .dictionary(let operators) = value, operators.keys.contains(where: { $0.hasPrefix("$") }) {
                    parts.append(try fieldCondition(key, operators))
                } else {
                    parts.append(.compare(key, .equal, value))
                }
            }
        }
        return .all(parts)
    }

    private static func fieldCondition(_ key: String, _ operators: [String: ModelValue]) throws(Invalid) -> Condition {
        var parts: [Condition] = []
        let map: [String: ComparisonOperator] = [
            "$lt": .less, "$lte": .lessOrEqual, "$gt": .greater, "$gte": .greaterOrEqual, "$ne": .notEqual, "$eq": .equal,
        ]
        for name in operators.keys.sorted() {
            guard let operand = operators[name] else { continue }
            if let op = map[name] {
                parts.append(.compare(key, op, operand))
            } else if name == "$in" || name == "$nin" {
                guard case .array(let list) = operand else { throw Invalid(message: "\(name) needs an array") }
                parts.append(.isIn(key, list, negated: name == "$nin"))
            } else if name == "$exists" {
                guard case .bool(let flag) = operand else { throw Invalid(message: "$exists needs a boolean") }
                parts.append(.exists(key, flag))
            } else if name == "$regex" {
                guard case .string(let pattern) = operand else { throw Invalid(message: "$regex needs a string") }
                let insensitive = operators["$options"].flatMap { if case .string(let s) = $0 { s.contains("i") } else { nil } } ?? false
                guard
                    let regex = try? NSRegularExpression(
                        pattern: pattern, options: insensitive ? [.caseInsensitive, .dotMatchesLineSeparators] : [.dotMatchesLineSeparators])
                else { throw Invalid(message: "$regex is not a valid pattern") }
                parts.append(.regex(key, regex))
            } else if name != "$options" {
                throw Invalid(message: "unknown operator \(name)")
            }
        }
        return .all(parts)
    }

    // MARK: Evaluation

    func matches(_ object: [String: ModelValue]) -> Bool {
        conditions.allSatisfy { Self.evaluate($0, object) == true }
    }

    /// Three-valued: nil is unknown (a comparison with null).
    private static func evaluate(_ condition: Condition, _ object: [String: ModelValue]) -> Bool? {
        switch condition {
        case .compare(let key, let op, let operand):
            guard let order = compare(object[key] ?? .null, operand) else { return nil }
            switch op {
            case .equal: return order == 0
            case .notEqual: return order != 0
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            case .greaterOrEqual: return order >= 0
            }
        case .isIn(let key, let list, let negated):
            let value = object[key] ?? .null
            if list.isEmpty { return negated }
            if value.isNull { return nil }
            let found = list.contains { compare(value, $0) == 0 }
            return negated ? !found : found
        case .exists(let key, let flag):
            return (object[key].map { !$0.isNull } ?? false) == flag
        case .regex(let key, let regex):
            guard case .string(let text) = object[key] ?? .null else { return nil }
            return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        case .all(let parts):
            var result: Bool? = true
            for part in parts {
                switch evaluate(part, object) {
                case false: return false
                case nil: result = nil
                case true: break
                }
            }
            return result
        case .any(let parts):
            var result: Bool? = false
            for part in parts {
                switch evaluate(part, object) {
                case true: return true
                case nil: result = nil
                case false: break
                }
            }
            return result
        }
    }

    /// Orders two JSON values; nil when either is null. Query-string operands (strings)
    /// are read as the stored value's kind; ISO 8601 strings compare as instants.
    static func compare(_ stored: ModelValue, _ operand: ModelValue) -> Int? {
        switch (stored, operand) {
        case (.null, _), (_, .null): return nil
        case (.int(let a), .int(let b)): return a < b ? -1 : (a > b ? 1 : 0)
        case (.int, .double), (.double, .int), (.double, .double):
            let a = number(stored), b = number(operand)
            return a < b ? -1 : (a > b ? 1 : 0)
        case (.int, .string(let text)), (.double, .string(let text)):
            guard let b = Double(text) else { return 2 }
            return compare(stored, .double(b))
        case (.bool(let a), .bool(let b)): return a == b ? 0 : (a ? 1 : -1)
        case (.bool, .string(let text)): return text == "true" || text == "false" ? compare(stored, .bool(text == "true")) : 2
        case (.string(let a), .string(let b)):
            if a.count >= 20, b.count >= 20, let x = DateCodec.parse(a), let y = DateCodec.parse(b) {
                return x < y ? -1 : (x > y ? 1 : 0)
            }
            if a.utf8.elementsEqual(b.utf8) { return 0 }  // by bytes, as SQL engines compare text
            return Array(a.utf8).lexicographicallyPrecedes(b.utf8) ? -1 : 1
        default:
            return stored == operand ? 0 : 2  // 2: different kinds, unequal and unordered
        }
    }

    private static func number(_ value: ModelValue) -> Double {
        switch value {
        case .int(let n): Double(n)
        case .double(let d): d
        default: 0
        }
    }

    /// `objects` sorted by the sort keys (stable; nulls first ascending, last descending).
    func sorted(_ objects: [[String: ModelValue]]) -> [[String: ModelValue]] {
        guard !sort.isEmpty else { return objects }
        return objects.enumerated().sorted { l, r in
            for key in sort {
                let a = l.element[key.key] ?? .null, b = r.element[key.key] ?? .null
                let order: Int
                switch (a.isNull, b.isNull) {
                case (true, true): order = 0
                case (true, false): order = -1
                case (false, true): order = 1
                case (false, false): order = Self.compare(a, b).map { $0 == 2 ? 0 : $0 } ?? 0
                }
                if order != 0 { return key.ascending ? order < 0 : order > 0 }
            }
            return l.offset < r.offset
        }.map(\.element)
    }
}
