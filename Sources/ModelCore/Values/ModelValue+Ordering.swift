import Foundation

extension ModelValue {
    /// Compares two non-null values of comparable kinds, the way queries and sorting do.
    ///
    /// Numbers compare numerically across `int` and `double`; strings compare by Unicode
    /// scalars (binary, as SQLite's default `BINARY` collation does on UTF-8); booleans as
    /// 0 and 1; dates, UUIDs (by string) and data (bytewise) within their kind.
    /// Returns `nil` when either side is null or the kinds are not comparable.
    ///
    /// - Complexity: O(1) for scalars, O(n) for strings and data.
    public func compare(to other: ModelValue) -> ComparisonResult? {
        switch (self, other) {
        case (.int(let a), .int(let b)): return Self.order(a, b)
        case (.double(let a), .double(let b)): return Self.order(a, b)
        case (.int(let a), .double(let b)): return Self.compare(int: a, double: b)
        case (.double(let a), .int(let b)): return Self.compare(int: b, double: a).map(Self.flip)
        case (.bool(let a), .bool(let b)): return Self.order(a ? 1 : 0, b ? 1 : 0)
        case (.bool(let a), .int(let b)): return Self.order(a ? 1 : 0, b)
        case (.int(let a), .bool(let b)): return Self.order(a, b ? 1 : 0)
        case (.bool(let a), .double(let b)): return Self.compare(int: a ? 1 : 0, double: b)
        case (.double(let a), .bool(let b)): return Self.compare(int: b ? 1 : 0, double: a).map(Self.flip)
        case (.string(let a), .string(let b)): return Self.compareBinary(a, b)
        case (.date(let a), .date(let b)): return Self.order(a.timeIntervalSince1970, b.timeIntervalSince1970)
        case (.uuid(let a), .uuid(let b)): return Self.compareBinary(a.uuidString, b.uuidString)
        case (.data(let a), .data(let b)): return Self.compareBytes(a, b)
        default: return nil
        }
    }

    @inlinable package static func order<T: Comparable>(_ a: T, _ b: T) -> ComparisonResult {
        a < b ? .orderedAscending : (a == b ? .orderedSame : .orderedDescending)
    }

    static func flip(_ r: ComparisonResult) -> ComparisonResult {
        switch r {
        case .orderedAscending: .orderedDescending
        case .orderedDescending: .orderedAscending
        case .orderedSame: .orderedSame
        }
    }

    /// Exact comparison of an integer with a double (no precision loss for large integers).
    static func compare(int a: Int64, double b: Double) -> ComparisonResult? {
        if b.isNaN { return nil }
        if b >= 9_223_372_036_854_775_808.0 { return .orderedAscending }
        if b < -9_223_372_036_854_775_808.0 { return .orderedDescending }
        let truncated = Int64(b.rounded(.towardZero))
        if a != truncated { return order(a, truncated) }
        let fraction = b - b.rounded(.towardZero)
        return fraction == 0 ? .orderedSame : (fraction > 0 ? .orderedAscending : .orderedDescending)
    }

    /// Binary (code unit) comparison of UTF-8 strings, matching SQLite's BINARY collation.
    package static func compareBinary(_ a: String, _ b: String) -> ComparisonResult {
        var a = a, b = b
        return a.withUTF8 { ua in
            b.withUTF8 { ub in
                let n = min(ua.count, ub.count)
                if n > 0 {
                    let r = memcmp(ua.baseAddress!, ub.baseAddress!, n)
                    if r != 0 { return r < 0 ? .orderedAscending : .orderedDescending }
                }
                return order(ua.count, ub.count)
            }
        }
    }

    static func compareBytes(_ a: Data, _ b: Data) -> ComparisonResult {
        for (x, y) in zip(a, b) where x != y { return x < y ? .orderedAscending : .orderedDescending }
        return order(a.count, b.count)
    }

    /// A total order over all values, used for sorting: `null` first, then booleans and
    /// numbers (together, numerically), strings, dates, UUIDs, data, arrays, dictionaries.
    ///
    /// Within comparable kinds it agrees with ``compare(to:)``.
    public func sortCompare(to other: ModelValue) -> ComparisonResult {
        if let r = compare(to: other) { return r }
        let (ra, rb) = (sortRank, other.sortRank)
        if ra != rb { return Self.order(ra, rb) }
        // Same rank but not comparable: null/null, arrays, dictionaries; fall back to text.
        if case .null = self { return .orderedSame }
        if case .double(let a) = self, case .double(let b) = other {  // NaNs sort first
            return Self.order(a.isNaN ? 0 : 1, b.isNaN ? 0 : 1)
        }
        return Self.compareBinary(description, other.description)
    }

    private var sortRank: Int {
        switch self {
        case .null: 0
        case .bool, .int, .double: 1
        case .string: 2
        case .date: 3
        case .uuid: 4
        case .data: 5
        case .array: 6
        case .dictionary: 7
        }
    }
}
