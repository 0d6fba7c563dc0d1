/// Evaluates a ``StoreQuery`` over rows in memory: the semantics every adapter matches.
///
/// ArrayAdapter and FileAdapter use it directly; SQL adapters compile the same query and
/// must return the same rows in the same order (the conformance suite checks this).
///
/// - Null semantics are SQL's three-valued logic (see ``QueryPredicate``).
/// - Ordering uses ``ModelValue/sortCompare(to:)``: nulls first ascending, last
///   descending; strings by UTF-8 bytes (SQLite's `BINARY`); ties keep store order.
public enum QueryEngine {
    /// The rows of `rows` (in store order) that `query` selects, sorted, offset, limited.
    ///
    /// - Complexity: O(n) to filter, plus O(m log m) to sort the m matches.
    public static func run<S: Sequence>(_ query: StoreQuery, over rows: S) -> [[ModelValue]] where S.Element == [ModelValue] {
        var matches: [[ModelValue]] = []
        if query.predicate == nil, query.sort.isEmpty, let all = rows as? [[ModelValue]] {
            return window(all, offset: query.offset, limit: query.limit)
        }
        if let predicate = query.predicate {
            for row in rows where evaluate(predicate, row) == true { matches.append(row) }
        } else {
            matches.append(contentsOf: rows)
        }
        if !query.sort.isEmpty { matches = sorted(matches, by: query.sort) }
        return window(matches, offset: query.offset, limit: query.limit)
    }

    /// How many rows `query` selects (limit and offset apply).
    public static func count<S: Sequence>(_ query: StoreQuery, over rows: S) -> Int where S.Element == [ModelValue] {
        var n = 0
        if let predicate = query.predicate {
            for row in rows where evaluate(predicate, row) == true { n += 1 }
        } else {
            for _ in rows { n += 1 }
        }
        let afterOffset = max(0, n - max(0, query.offset))
        return query.limit.map { min(max(0, $0), afterOffset) } ?? afterOffset
    }

    /// Applies offset then limit.
    public static func window<T>(_ items: [T], offset: Int, limit: Int?) -> [T] {
        let start = min(max(0, offset), items.count)
        let end = limit.map { min(items.count, start + max(0, $0)) } ?? items.count
        if start == 0, end == items.count { return items }
        return Array(items[start..<end])
    }

    /// Stable sort by keys (ties keep their relative order).
    public static func sorted(_ rows: [[ModelValue]], by keys: [SortKey]) -> [[ModelValue]] {
        let order = rows.indices.sorted { a, b in
            for key in keys {
                let r = rows[a][key.column].sortCompare(to: rows[b][key.column])
                if r == .orderedSame { continue }
                return (r == .orderedAscending) == key.ascending
            }
            return a < b
        }
        return order.map { rows[$0] }
    }

    /// Three-valued evaluation: `true`, `false`, or `nil` (unknown).
    public static func evaluate(_ predicate: QueryPredicate, _ row: [ModelValue]) -> Bool? {
        switch predicate {
        case .compare(let column, let op, let value):
            return compare(row[column], op, value)
        case .isNull(let column):
            return row[column].isNull
        case .isNotNull(let column):
            return !row[column].isNull
        case .isIn(let column, let values):
            return membership(row[column], values)
        case .notIn(let column, let values):
            return membership(row[column], values).map { !$0 }
        case .between(let column, let low, let high):
            return and(compare(row[column], .greaterOrEqual, low), compare(row[column], .lessOrEqual, high))
        case .text(let column, let op, let text, let caseInsensitive):
            guard case .string(let subject) = row[column] else { return row[column].isNull ? nil : false }
            return TextMatcher.matches(subject, op, text, caseInsensitive: caseInsensitive)
        case .and(let parts):
            var result: Bool? = true
            for part in parts {
                result = and(result, evaluate(part, row))
                if result == false { return false }
            }
            return result
        case .or(let parts):
            var result: Bool? = false
            for part in parts {
                result = or(result, evaluate(part, row))
                if result == true { return true }
            }
            return result
        case .not(let inner):
            return evaluate(inner, row).map { !$0 }
        }
    }

    static func and(_ a: Bool?, _ b: Bool?) -> Bool? {
        if a == false || b == false { return false }
        if a == nil || b == nil { return nil }
        return true
    }

    static func or(_ a: Bool?, _ b: Bool?) -> Bool? {
        if a == true || b == true { return true }
        if a == nil || b == nil { return nil }
        return false
    }

    /// `lhs op rhs` with SQL null semantics; values of incomparable kinds are unequal.
    public static func compare(_ lhs: ModelValue, _ op: ComparisonOperator, _ rhs: ModelValue) -> Bool? {
        if lhs.isNull || rhs.isNull { return nil }
        guard let order = lhs.compare(to: rhs) else {
            switch op {
            case .equal: return lhs == rhs
            case .notEqual: return lhs != rhs
            default: return nil
            }
        }
        switch op {
        case .equal: return order == .orderedSame
        case .notEqual: return order != .orderedSame
        case .less: return order == .orderedAscending
        case .lessOrEqual: return order != .orderedDescending
        case .greater: return order == .orderedDescending
        case .greaterOrEqual: return order != .orderedAscending
        }
    }

    /// SQL `IN`: true if any equal; otherwise unknown if the subject or a member is null.
    static func membership(_ subject: ModelValue, _ values: [ModelValue]) -> Bool? {
        if values.isEmpty { return false }
        if subject.isNull { return nil }
        var sawNull = false
        for value in values {
            if value.isNull { sawNull = true; continue }
            if compare(subject, .equal, value) == true { return true }
        }
        return sawNull ? nil : false
    }
}
