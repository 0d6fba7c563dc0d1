import Foundation
import ModelCore

/// A small deterministic generator (SplitMix64): the same seed gives the same data and
/// queries on every machine, so a failure can be replayed from its seed.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator for `seed`.
    public init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `range`.
    public mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
    /// A coin flip.
    public mutating func flip() -> Bool { next() & 1 == 0 }
    /// One of `items` (which must not be empty).
    public mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }
}

/// Random data and queries over ``ConformancePerson``-shaped rows (name, age, city, score,
/// joined, active): nils, duplicates, unicode, wildcard characters, edge numbers.
struct QueryGenerator {
    var random: SeededRandom
    /// The strings rows and queries use (``strings``, with NUL replaced by U+0001 for
    /// stores whose text cannot hold it).
    var strings = Self.strings

    init(random: SeededRandom, textWithoutNUL: Bool = false) {
        self.random = random
        if textWithoutNUL { strings = Self.strings.map { $0.replacingOccurrences(of: "\u{0}", with: "\u{1}") } }
    }

    static let strings = ["Ann", "Bob", "Paris", "paris", "PARIS", "Pa%is", "P_ris", "Zürich", "zürich", "", " ", "Seattle",
                          "cara", "a'b", "\"q\"", "\\", "🐶", "Ann Marie", "100%", "ß", "SS", "x\u{0}y"]
    static let ages: [Int64] = [-1, 0, 1, 17, 18, 30, 34, 40, 41, 77, 1_000_000, -1_000_000, 4_611_686_018_427_387_903]
    static let scores: [Double] = [0, -0.0, 6, 9.25, -1.5, 1e10, 7.0, 0.1, 1e-300, -1e300, 2.5]

    mutating func value(_ column: Int) -> ModelValue {
        if random.int(0...7) == 0 { return .null }
        switch column {
        case 1, 3: return .string(random.pick(strings))
        case 2: return .int(random.pick(Self.ages))
        case 4: return .double(random.pick(Self.scores))
        case 5: return .date(Date(timeIntervalSince1970: 1_000_000 + Double(random.int(0...6)) * 86_400.25))
        default: return .bool(random.flip())
        }
    }

    /// A row for a fresh insert (id nil); non-optional columns get non-nil values.
    mutating func row() -> [ModelValue] {
        var row: [ModelValue] = [.null]
        for column in 1...6 {
            var v = value(column)
            if v.isNull, column == 1 || column == 4 || column == 6 { v = column == 1 ? "" : column == 4 ? .double(0) : .bool(false) }
            row.append(v)
        }
        return row
    }

    mutating func predicate(depth: Int) -> QueryPredicate {
        let column = random.int(0...6)
        switch random.int(0...(depth < 3 ? 10 : 6)) {
        case 0: return .compare(column: column, random.pick(ComparisonOperator.allCases), operand(column))
        case 1: return random.flip() ? .isNull(column: column) : .isNotNull(column: column)
        case 2: return .isIn(column: column, (0..<random.int(0...3)).map { _ in operand(column) })
        case 3: return .notIn(column: column, (0..<random.int(0...3)).map { _ in value(max(column, 1)) })
        case 4: return .between(column: max(column, 1), value(max(column, 1)), value(max(column, 1)))
        case 5, 6:
            let text = random.pick(["a", "A", "Pa", "is", "%", "_", "\\", "P_r", "%a%", "ü", "Ü", "*", "[", "", "'", "ss", "🐶"])
            return .text(column: random.pick([1, 3]), random.pick(TextOperator.allCases), text, caseInsensitive: random.flip())
        case 7, 8: return .and((0..<random.int(0...3)).map { _ in predicate(depth: depth + 1) })
        case 9: return .or((0..<random.int(0...3)).map { _ in predicate(depth: depth + 1) })
        default: return .not(predicate(depth: depth + 1))
        }
    }

    /// A value to compare `column` with: mostly of the column's own kind, one time in four
    /// of another kind (a string against a number, a date against a bool, …), so that
    /// comparisons across kinds — `!=` against rows holding NULL included — are compared
    /// between stores too.
    mutating func operand(_ column: Int) -> ModelValue {
        if random.int(0...3) == 0 {
            let other = random.pick((1...6).filter { $0 != column && !($0 == 1 && column == 3) && !($0 == 3 && column == 1) })
            return value(other)
        }
        return column == 0 ? .int(Int64(random.int(0...40))) : value(column)
    }

    mutating func query(_ schema: ModelSchema) -> StoreQuery {
        var query = StoreQuery(
            schema: schema, predicate: random.int(0...5) == 0 ? nil : predicate(depth: 0),
            sort: (0..<random.int(0...2)).map { _ in SortKey(column: random.int(0...6), ascending: random.flip()) },
            limit: random.flip() ? random.int(0...8) : nil, offset: random.flip() ? random.int(0...5) : 0)
        if random.int(0...3) == 0 {
            let function = random.pick(Aggregate.Function.allCases)
            let numeric = function == .sum || function == .average
            let column = function == .count && random.flip() ? nil : random.pick(numeric ? [2, 4] : [2, 4, 1, 3, 5, 6])
            query.aggregate = Aggregate(function, column: column, groupBy: random.flip() ? [random.pick([3, 6, 2])] : [])
        }
        return query
    }
}
