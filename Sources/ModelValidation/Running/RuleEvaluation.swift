import Foundation

/// Why a value failed a rule: its code and the details its message template uses.
struct RuleFailure {
    var code: String
    var details: [String: String] = [:]
    /// The template to use when the rule sets none (validators bring their own).
    var template: String? = nil
}

extension CompiledRule {
    /// Checks one value. `values` is the whole row (for scoped uniqueness and
    /// confirmation); `count` answers uniqueness queries (how many stored rows match).
    func evaluate(
        _ value: ModelValue, row values: [ModelValue], record: ModelObject, id: ModelValue?,
        schema: ModelSchema, count: (StoreQuery) throws -> Int
    ) throws -> RuleFailure? {
        switch check {
        case .presence:
            return Self.isPresent(value) ? nil : RuleFailure(code: "blank")
        case .length(let min, let max, let exact, let unit):
            let count = Self.length(of: value)
            func fail(_ code: String, _ limit: Int) -> RuleFailure {
                RuleFailure(code: code, details: ["count": "\(limit)", "unit": limit == 1 ? unit : unit + "s"])
            }
            if exact, let min, count != min { return fail("wrong_length", min) }
            if let min, count < min { return fail("too_short", min) }
            if let max, count > max { return fail("too_long", max) }
            return nil
        case .format(let pattern):
            guard case .string(let s) = value, pattern.matches(s) else { return RuleFailure(code: "invalid") }
            return nil
        case .email:
            guard case .string(let s) = value, EmailAddress.isValid(s) else { return RuleFailure(code: "invalid_email") }
            return nil
        case .url(let grammar):
            guard case .string(let s) = value, grammar.matches(s) else { return RuleFailure(code: "invalid_url") }
            return nil
        case .numericality(let bounds):
            return Self.numericality(value, bounds)
        case .inclusion(let allowed):
            return allowed.contains(value) ? nil : RuleFailure(code: "inclusion")
        case .exclusion(let excluded):
            return excluded.contains(value) ? RuleFailure(code: "exclusion") : nil
        case .uniqueness:
            guard let query = storeQuery(value, row: values, id: id, schema: schema) else { return nil }
            return try count(query) > 0 ? RuleFailure(code: "taken") : nil
        case .confirmation(let other):
            return Self.confirms(value, values[other])
        case .confirmationProperty(let read):
            return Self.confirms(value, read(record))
        case .custom(let code, let body):
            return body(value, record) ? nil : RuleFailure(code: code)
        case .validator(let validator):
            guard !value.isNull, validator.isValid(value, column: column) else {
                return RuleFailure(code: validator.code, template: validator.message)
            }
            return nil
        case .each:
            // Element rules report one error per element: `ValidationPlan.appendElementErrors`.
            return nil
        }
    }

    /// The store query a uniqueness rule asks for `value` (nil for other rules, and for a
    /// null value: like SQL UNIQUE, nulls never clash).
    func storeQuery(_ value: ModelValue, row values: [ModelValue], id: ModelValue?, schema: ModelSchema) -> StoreQuery? {
        guard case .uniqueness(let scope, let caseSensitive) = check, !value.isNull else { return nil }
        var parts: [QueryPredicate] = []
        if !caseSensitive, case .string(let s) = value {
            parts.append(.text(column: slot, .like, TextOperator.escapeLike(s), caseInsensitive: true))
        } else {
            parts.append(.compare(column: slot, .equal, value))
        }
        for k in scope {
            parts.append(values[k].isNull ? .isNull(column: k) : .compare(column: k, .equal, values[k]))
        }
        if let id { parts.append(.compare(column: 0, .notEqual, id)) }
        return StoreQuery(schema: schema, predicate: .and(parts), limit: 1)
    }

    static func isPresent(_ value: ModelValue) -> Bool {
        switch value {
        case .null: false
        case .string(let s): !s.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        case .array(let a): !a.isEmpty
        case .dictionary(let d): !d.isEmpty
        case .data(let d): !d.isEmpty
        case .bool, .int, .double, .date, .uuid: true
        }
    }

    static func length(of value: ModelValue) -> Int {
        switch value {
        case .string(let s): s.count
        case .array(let a): a.count
        case .dictionary(let d): d.count
        case .data(let d): d.count
        default: 0
        }
    }

    private static func confirms(_ value: ModelValue, _ confirmation: ModelValue) -> RuleFailure? {
        confirmation.isNull || confirmation == value ? nil : RuleFailure(code: "confirmation")
    }

    private static func numericality(_ value: ModelValue, _ bounds: NumericBounds) -> RuleFailure? {
        let number: ModelValue
        switch value {
        case .int: number = value
        case .double(let d): number = d.isNaN ? .null : value
        case .string(let s):
            let text = s.trimmingCharacters(in: .whitespaces)
            if let i = Int64(text) {
                number = .int(i)
            } else if !bounds.onlyInteger, let d = Double(text), d.isFinite {
                number = .double(d)
            } else if bounds.onlyInteger, let d = Double(text), d.isFinite {
                return RuleFailure(code: "not_an_integer")
            } else {
                return RuleFailure(code: "not_a_number")
            }
        default: number = .null
        }
        if number.isNull { return RuleFailure(code: "not_a_number") }
        if bounds.onlyInteger, case .double(let d) = number, d.rounded() != d || !d.isFinite {
            return RuleFailure(code: "not_an_integer")
        }
        func compare(_ bound: Double) -> ComparisonResult { number.compare(to: .double(bound)) ?? .orderedSame }
        func fail(_ code: String, _ bound: Double) -> RuleFailure { RuleFailure(code: code, details: ["count": format(bound)]) }
        if let b = bounds.greaterThan, compare(b) != .orderedDescending { return fail("greater_than", b) }
        if let b = bounds.greaterThanOrEqualTo, compare(b) == .orderedAscending { return fail("greater_than_or_equal_to", b) }
        if let b = bounds.lessThan, compare(b) != .orderedAscending { return fail("less_than", b) }
        if let b = bounds.lessThanOrEqualTo, compare(b) == .orderedDescending { return fail("less_than_or_equal_to", b) }
        if let b = bounds.equalTo, compare(b) != .orderedSame { return fail("equal_to", b) }
        if let r = bounds.range, compare(r.lowerBound) == .orderedAscending || compare(r.upperBound) == .orderedDescending {
            return RuleFailure(code: "not_in_range", details: ["low": format(r.lowerBound), "high": format(r.upperBound)])
        }
        return nil
    }

    /// `3.0` → `"3"`, `2.5` → `"2.5"`.
    static func format(_ d: Double) -> String {
        if d.rounded() == d, abs(d) < 1e15 { return String(Int64(d)) }
        return String(d)
    }
}
