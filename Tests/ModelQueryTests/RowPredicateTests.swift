import AdapterConformance
import Foundation
import ModelEngine
import Testing

/// The compiled predicate queries run (``RowPredicate``) answers exactly what evaluating
/// the predicate tree answers — true, false or unknown — for random predicates over rows
/// of every value kind: same-kind pairs take its fast paths, every other pairing (nulls,
/// `int` against `double` or `bool`, strings against numbers, NaN) its fallback.
@Suite struct RowPredicateTests {
    /// A deterministic generator, so a failure repeats.
    typealias Generator = SeededRandom

    static let strings = ["", "a", "A", "apple", "Apple", "é", "e\u{301}", "z", "Paris", "paris", "日本"]
    static let dates = [0, 1, -1, 1_700_000_000, 1_700_000_000.5].map { Date(timeIntervalSince1970: $0) }

    static func value(_ g: inout Generator) -> ModelValue {
        switch g.below(9) {
        case 0: .null
        case 1: .bool(g.below(2) == 0)
        case 2: .int(g.pick([0, 1, -1, 2, 3, 10, 30, 40, Int64.max, Int64.min]))
        case 3: .double(g.pick([0, -0.0, 0.5, 1, 2.5, 30, 40.5, -1, .infinity, .nan, 9_223_372_036_854_775_808.0]))
        case 4, 5: .string(g.pick(strings))
        case 6: .date(g.pick(dates))
        case 7: .uuid(g.pick([UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)), UUID(uuid: (1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))]))
        default: .data(Data(g.pick([[], [0], [1, 2], [0, 255]])))
        }
    }

    /// A value of a kind whose hashing equality is the comparison's (null, integer, date,
    /// UUID, bytes).
    static func exactValue(_ g: inout Generator) -> ModelValue {
        while true {
            let candidate = value(&g)
            switch candidate {
            case .null, .int, .date, .uuid, .data: return candidate
            default: continue
            }
        }
    }

    static func predicate(_ g: inout Generator, columns: Int, depth: Int = 0) -> QueryPredicate {
        let column = g.below(columns)
        switch g.below(depth > 2 ? 6 : 10) {
        case 0, 1, 2: return .compare(column: column, g.pick(ComparisonOperator.allCases), value(&g))
        case 3: return .between(column: column, value(&g), value(&g))
        case 4: return g.below(2) == 0 ? .isNull(column: column) : .isNotNull(column: column)
        case 5:
            // Short lists of any kind; long ones of the kinds a set decides (compiled to one).
            if g.below(2) == 0 { return .isIn(column: column, (0..<g.below(3)).map { _ in value(&g) }) }
            let long = (0..<(17 + g.below(8))).map { _ in exactValue(&g) }
            return g.below(2) == 0 ? .isIn(column: column, long) : .notIn(column: column, long)
        case 6: return .between(column: column, .int(Int64(g.below(40))), .int(Int64(g.below(40))))
        case 7: return .and((0..<g.below(4)).map { _ in predicate(&g, columns: columns, depth: depth + 1) })
        case 8: return .or((0..<g.below(4)).map { _ in predicate(&g, columns: columns, depth: depth + 1) })
        default: return .not(predicate(&g, columns: columns, depth: depth + 1))
        }
    }

    @Test func compiledAnswersEqualTheTreeWalkOnRandomInput() {
        var g = Generator(seed: 41)
        var checked = 0, decided = 0
        for _ in 0..<3_000 {
            let predicate = Self.predicate(&g, columns: 4)
            let compiled = RowPredicate(predicate)
            for _ in 0..<20 {
                let row = (0..<4).map { _ in Self.value(&g) }
                let expected = QueryEngine.evaluate(predicate, row)
                #expect(compiled.test(row) == expected, "\(predicate) on \(row)")
                checked += 1
                if expected != nil { decided += 1 }
            }
        }
        #expect(checked == 60_000)
        #expect(decided > 20_000, "most rows got a definite answer, so both branches were exercised")
    }

    @Test func sameKindComparisonsTakeBinaryStringOrder() {
        // Binary (UTF-8) order, not Swift's canonical equivalence: "é" ≠ "e\u{301}".
        let composed = RowPredicate(.compare(column: 0, .equal, .string("é")))
        #expect(composed.test([.string("e\u{301}")]) == false)
        #expect(composed.test([.string("é")]) == true)
        #expect(RowPredicate(.compare(column: 0, .less, .string("a"))).test([.string("B")]) == true)
        #expect(RowPredicate(.compare(column: 0, .greater, .int(1))).test([.double(1.5)]) == true)
        #expect(RowPredicate(.compare(column: 0, .equal, .int(1))).test([.null]) == nil)
        #expect(RowPredicate(.between(column: 0, .int(1), .int(3))).test([.bool(true)]) == true)
    }
}

extension SeededRandom {
    /// A number in `0..<n` (`n` > 0).
    fileprivate mutating func below(_ n: Int) -> Int { int(0...(n - 1)) }
}
