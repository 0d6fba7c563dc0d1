import ModelCore

/// Evaluates a ``StoreQuery`` over rows in memory: the semantics every adapter matches.
///
/// ArrayAdapter and FileAdapter use it directly; SQL adapters compile the same query and
/// must return the same rows in the same order (the conformance suite checks this).
///
/// - Null semantics are SQL's three-valued logic (see ``QueryPredicate``).
/// - Ordering uses ``ModelValue/sortCompare(to:)``: nulls first ascending, last
///   descending; strings by UTF-8 bytes (SQLite's `BINARY`); ties keep store order.
public enum QueryEngine {
    /// The rows `query` selects from `source`: matched, sorted, offset, limited.
    ///
    /// An equality or `IN` predicate on an indexed column (the id, foreign keys, columns
    /// declared `.indexed`), alone or inside a top-level `and`, is answered through the
    /// source's index; anything else scans the rows once without copying them.
    ///
    /// - Complexity: O(n) to filter (O(k) for k index hits), plus O(m log m) to sort m
    ///   matches.
    public static func select<Source: RowSource>(_ query: StoreQuery, from source: Source) -> [[ModelValue]] {
        var matches = candidates(query.predicate, in: source)
        if !query.sort.isEmpty { matches = sorted(matches, by: query.sort) }
        return window(matches, offset: query.offset, limit: query.limit)
    }

    /// How many rows `query` selects (offset and limit apply).
    public static func count<Source: RowSource>(_ query: StoreQuery, from source: Source) -> Int {
        let n: Int
        if let predicate = query.predicate {
            let matches = RowPredicate(predicate).test
            if let rows = indexed(predicate, in: source) {
                n = answeredByIndex(predicate) ? rows.count : rows.reduce(0) { matches($1) == true ? $0 + 1 : $0 }
            } else {
                n = source.countRows(where: matches)
            }
        } else {
            n = source.storeOrderRows.reduce(0) { n, _ in n + 1 }
        }
        let afterOffset = max(0, n - max(0, query.offset))
        return query.limit.map { min(max(0, $0), afterOffset) } ?? afterOffset
    }

    /// Matching rows in store order.
    static func candidates<Source: RowSource>(_ predicate: QueryPredicate?, in source: Source) -> [[ModelValue]] {
        guard let predicate else { return Array(source.storeOrderRows) }
        let isMatch = RowPredicate(predicate).test
        if let rows = indexed(predicate, in: source) {
            return answeredByIndex(predicate) ? rows : rows.filter { isMatch($0) == true }
        }
        return source.rows(where: isMatch)
    }

    /// The rows an index narrows `predicate` to (a superset of the matches, in store
    /// order, each once), when the predicate visibly constrains an indexed column:
    /// `column = v` or `column IN (…)`, alone or inside a top-level `and`.
    static func indexed<Source: RowSource>(_ predicate: QueryPredicate, in source: Source) -> [[ModelValue]]? {
        func lookup(_ column: Int, _ values: [ModelValue]) -> [[ModelValue]]? {
            // Numeric cross-kind equality (`1 = 1.0`) is left to a scan.
            for value in values {
                switch value {
                case .double, .bool: return nil
                default: continue
                }
            }
            let keys = values.filter { !$0.isNull }
            guard var hits = source.indexedRows(column: column, equalTo: keys) else { return nil }
            hits.sort { $0.position < $1.position }
            var rows: [[ModelValue]] = []
            rows.reserveCapacity(hits.count)
            var last = -1
            for hit in hits where hit.position != last {
                rows.append(hit.row)
                last = hit.position
            }
            return rows
        }
        switch predicate {
        case .compare(let column, .equal, let value): return lookup(column, [value])
        case .isIn(let column, let values): return lookup(column, values)
        case .and(let parts):
            for part in parts { if let rows = indexed(part, in: source) { return rows } }
            return nil
        default: return nil
        }
    }

    /// Applies offset then limit.
    public static func window<T>(_ items: [T], offset: Int, limit: Int?) -> [T] {
        let start = min(max(0, offset), items.count)
        let end = limit.map { min(items.count, start + max(0, $0)) } ?? items.count
        if start == 0, end == items.count { return items }
        return Array(items[start..<end])
    }

    /// Whether the rows ``indexed(_:in:)`` gives for `predicate` are exactly its matches,
    /// so testing each again can be skipped: an equality or `IN` alone whose keys are
    /// integers, UUIDs, dates or bytes, where a hit's value equals a key exactly as the
    /// comparison would decide. (Strings are tested again: the index's equality is
    /// Unicode-canonical, the comparison's is by bytes. A list with a double or a bool is
    /// not looked up.) Testing them would compare each hit with every listed value: for an
    /// eager load's list of 5,000 ids, 25 million comparisons.
    static func answeredByIndex(_ predicate: QueryPredicate) -> Bool {
        switch predicate {
        case .compare(_, .equal, let key): hashesExactly(key)
        case .isIn(_, let keys): keys.allSatisfy(hashesExactly)
        default: false
        }
    }

    /// Whether `value` (or null) is of a kind whose `Hashable` equality is exactly
    /// ``compare(_:_:_:)``'s equality with any value: integers, UUIDs, dates and bytes. Not
    /// doubles and bools (equal to integers across kinds), nor strings (hashed by Unicode
    /// canonical equivalence, compared by bytes).
    static func hashesExactly(_ value: ModelValue) -> Bool {
        switch value {
        case .null, .int, .uuid, .date, .data: true
        default: false
        }
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
        return op.holds(order)
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
