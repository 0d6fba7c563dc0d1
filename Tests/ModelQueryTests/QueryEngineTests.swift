import ModelEngine
import ArrayAdapter
import Foundation
import Testing

final class Sample: Model {
    @Column var name: String?
    @Column var score: Int?
    @Column var ratio: Double?
    init() {}
}

@Suite("Query engine")
struct QueryEngineTests {
    static let schema = Sample.schema
    // id, name, score, ratio
    static let rows: [[ModelValue]] = [
        [1, "Apple", 3, 0.5],
        [2, "banana", nil, 1.5],
        [3, nil, 3, nil],
        [4, "apple pie", 10, 2.0],
        [5, "50% off_sale", 1, -1],
    ]

    func ids(_ predicate: QueryPredicate?, sort: [SortKey] = [], limit: Int? = nil, offset: Int = 0) -> [ModelValue] {
        let query = StoreQuery(schema: Self.schema, predicate: predicate, sort: sort, limit: limit, offset: offset)
        return QueryEngine.select(query, from: Self.rows).map { $0[0] }
    }

    @Test func comparisonsWithNullAreUnknown() {
        #expect(ids(.compare(column: 2, .equal, 3)) == [1, 3])
        #expect(ids(.compare(column: 2, .notEqual, 3)) == [4, 5])  // null score excluded
        #expect(ids(.not(.compare(column: 2, .equal, 3))) == [4, 5])  // not(unknown) is unknown
        #expect(ids(.compare(column: 2, .equal, nil)) == [])
        // A NULL right-hand side is unknown for every operator, and so is its negation.
        for op in [ComparisonOperator.notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual] {
            #expect(ids(.compare(column: 2, op, nil)) == [], "score \(op.rawValue) NULL")
            #expect(ids(.not(.compare(column: 2, op, nil))) == [], "NOT (score \(op.rawValue) NULL)")
            #expect(ids(.compare(column: 1, op, nil)) == [], "name \(op.rawValue) NULL")
        }
        #expect(ids(.isNull(column: 2)) == [2])
        #expect(ids(.isNotNull(column: 1)) == [1, 2, 4, 5])
    }

    @Test func numericComparisonAcrossIntAndDouble() {
        #expect(ids(.compare(column: 2, .greater, 2.5)) == [1, 3, 4])
        #expect(ids(.compare(column: 3, .lessOrEqual, 0.5)) == [1, 5])
        #expect(ids(.between(column: 2, 1, 3)) == [1, 3, 5])
    }

    @Test func inAndNotInIncludingEmptyAndNull() {
        #expect(ids(.isIn(column: 2, [3, 10])) == [1, 3, 4])
        #expect(ids(.isIn(column: 2, [])) == [])
        #expect(ids(.notIn(column: 2, [])) == [1, 2, 3, 4, 5])  // even the null
        #expect(ids(.notIn(column: 2, [3])) == [4, 5])
        #expect(ids(.notIn(column: 2, [3, nil])) == [])  // x NOT IN (3, NULL) is never true
        #expect(ids(.isIn(column: 2, [1, nil])) == [5])
    }

    @Test func textOperators() {
        #expect(ids(.text(column: 1, .contains, "apple", caseInsensitive: false)) == [4])
        #expect(ids(.text(column: 1, .contains, "apple", caseInsensitive: true)) == [1, 4])
        #expect(ids(.text(column: 1, .beginsWith, "b", caseInsensitive: false)) == [2])
        #expect(ids(.text(column: 1, .endsWith, "PIE", caseInsensitive: true)) == [4])
        #expect(ids(.text(column: 1, .contains, "%", caseInsensitive: false)) == [5])  // literal
        #expect(ids(.text(column: 1, .contains, "f_s", caseInsensitive: false)) == [5])  // literal _
        #expect(ids(.text(column: 1, .like, "a%e", caseInsensitive: true)) == [1, 4])
        #expect(ids(.text(column: 1, .like, "_pple", caseInsensitive: false)) == [1])
        #expect(ids(.text(column: 1, .like, "50\\% off\\_sale", caseInsensitive: false)) == [5])
        #expect(ids(.not(.text(column: 1, .contains, "a", caseInsensitive: false))) == [1])  // null name unknown
    }

    @Test func likeEscapingHelperMakesTextLiteral() {
        #expect(TextMatcher.matches("100%_x", .like, TextOperator.escapeLike("100%_x"), caseInsensitive: false))
        #expect(!TextMatcher.matches("100ab_x", .like, TextOperator.escapeLike("100%_x"), caseInsensitive: false))
        #expect(TextMatcher.matches("ÉCOLE", .like, "É%", caseInsensitive: true))
        #expect(!TextMatcher.matches("école", .like, "É%", caseInsensitive: true))  // ASCII-only folding, as SQLite
    }

    @Test func threeValuedAndOrNot() {
        let scoreIs3: QueryPredicate = .compare(column: 2, .equal, 3)
        let nameIsApple: QueryPredicate = .compare(column: 1, .equal, "Apple")
        #expect(ids(.and([scoreIs3, nameIsApple])) == [1])
        #expect(ids(.or([scoreIs3, nameIsApple])) == [1, 3])
        #expect(ids(.not(.or([scoreIs3, nameIsApple]))) == [4, 5])  // 2: unknown; 3: true
        #expect(ids(.and([])) == [1, 2, 3, 4, 5])
        #expect(ids(.or([])) == [])
        #expect(ids(.not(.and([.isNull(column: 2), .not(.isNull(column: 2))]))) == [1, 2, 3, 4, 5])
    }

    @Test func orderingIsStableWithNullsFirstAscending() {
        #expect(ids(nil, sort: [SortKey(column: 2)]) == [2, 5, 1, 3, 4])
        #expect(ids(nil, sort: [SortKey(column: 2, ascending: false)]) == [4, 1, 3, 5, 2])
        #expect(ids(nil, sort: [SortKey(column: 2), SortKey(column: 0, ascending: false)]) == [2, 5, 3, 1, 4])
        #expect(ids(nil, sort: [SortKey(column: 1)]) == [3, 5, 1, 4, 2])  // binary: uppercase first
    }

    @Test func limitAndOffset() {
        #expect(ids(nil, limit: 2) == [1, 2])
        #expect(ids(nil, limit: 2, offset: 4) == [5])
        #expect(ids(nil, offset: 9) == [])
        #expect(ids(nil, limit: 0) == [])
        let query = StoreQuery(schema: Self.schema, predicate: .isNotNull(column: 2), limit: 2, offset: 1)
        #expect(QueryEngine.count(query, from: Self.rows) == 2)
    }

    /// A source that records whether the engine scanned it.
    final class CountingSource: RowSource {
        let rows: [[ModelValue]]
        var scans = 0
        init(_ rows: [[ModelValue]]) { self.rows = rows }
        var storeOrderRows: [[ModelValue]] {
            scans += 1
            return rows
        }
        /// The id and `score` (column 2) are "indexed".
        func indexedRows(column: Int, equalTo values: [ModelValue]) -> [(position: Int, row: [ModelValue])]? {
            guard column == 0 || column == 2 else { return nil }
            var found: [(position: Int, row: [ModelValue])] = []
            for value in values { for (k, row) in rows.enumerated() where row[column] == value { found.append((k, row)) } }
            return found
        }
    }

    @Test func idPredicatesUseTheIndexInsteadOfScanning() {
        let source = CountingSource(Self.rows)
        func select(_ predicate: QueryPredicate) -> [ModelValue] {
            QueryEngine.select(StoreQuery(schema: Self.schema, predicate: predicate), from: source).map { $0[0] }
        }
        #expect(select(.compare(column: 0, .equal, 3)) == [3])
        #expect(select(.isIn(column: 0, [4, 1, 4, 42, nil])) == [1, 4])
        #expect(select(.and([.compare(column: 2, .equal, 3), .isIn(column: 0, [3, 4])])) == [3])
        #expect(QueryEngine.count(StoreQuery(schema: Self.schema, predicate: .isIn(column: 0, [1, 2])), from: source) == 2)
        #expect(select(.compare(column: 2, .equal, 3)) == [1, 3])  // an indexed column (a foreign key)
        #expect(select(.and([.isIn(column: 2, [10, 3]), .isNotNull(column: 1)])) == [1, 4])
        #expect(select(.isIn(column: 2, [nil])) == [])
        #expect(source.scans == 0)
        #expect(select(.compare(column: 0, .equal, 3.0)) == [3])  // cross-kind equality falls back to a scan
        #expect(select(.or([.compare(column: 0, .equal, 1), .compare(column: 0, .equal, 2)])) == [1, 2])
        #expect(source.scans == 2)
    }

    @Test func aggregatesFollowSQLiteRules() throws {
        func aggregate(_ f: Aggregate.Function, _ column: Int?, groupBy: [Int] = [], _ predicate: QueryPredicate? = nil) throws
            -> [AggregateGroup]
        {
            let query = StoreQuery(schema: Self.schema, predicate: predicate, aggregate: Aggregate(f, column: column, groupBy: groupBy))
            return try QueryEngine.aggregate(query, from: Self.rows)
        }
        #expect(try aggregate(.count, nil).first?.value == 5)
        #expect(try aggregate(.count, 1).first?.value == 4)  // non-null names
        #expect(try aggregate(.sum, 2).first?.value == .int(17))
        #expect(try aggregate(.sum, 3).first?.value == .double(3.0))
        #expect(try aggregate(.average, 2).first?.value == .double(17.0 / 4))
        #expect(try aggregate(.min, 1).first?.value == "50% off_sale")
        #expect(try aggregate(.max, 3).first?.value == 2.0)
        #expect(try aggregate(.sum, 2, .isNull(column: 2)).first?.value == .null)
        #expect(try aggregate(.count, 2, .isNull(column: 2)).first?.value == 0)
        let groups = try aggregate(.count, nil, groupBy: [2])
        #expect(groups.map(\.key) == [nil, 1, 3, 10])
        #expect(groups.map(\.value) == [1, 1, 2, 1])
        #expect(throws: StoreError.self) { try QueryEngine.aggregate(StoreQuery(schema: Self.schema), from: Self.rows) }
        #expect(throws: StoreError.self) { try aggregate(.sum, 99) }
    }
}
