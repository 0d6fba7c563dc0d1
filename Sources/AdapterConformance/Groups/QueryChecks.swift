import Foundation
import ModelCore
import ModelQuery

/// Queries over the ``ConformancePerson`` fixture (ids 1...11), with expected results
/// written out by hand: this is the specification every adapter meets.
enum QueryChecks {
    typealias P = ConformancePerson

    private static func ids(_ query: Query<P>) throws -> [Int64] { try query.all().compactMap(\.id) }

    static func operators(_ c: ConformanceChecker) throws {
        try P.seed()
        let day2 = Date(timeIntervalSince1970: 1_000_000 + 2 * 86_400.25)
        let cases: [(String, Query<P>, [Int64])] = [
            ("age == 34", P.where(\.age == 34), [1]),
            ("age != 34 (nil excluded)", P.where(\.age != 34), [2, 4, 5, 6, 7, 8, 9, 10, 11]),
            ("age > 40", P.where(\.age > 40), [2, 8, 10]),
            ("age >= 40", P.where(\.age >= 40), [2, 5, 8, 10]),
            ("age < 25", P.where(\.age < 25), [9, 11]),
            ("age <= 25", P.where(\.age <= 25), [6, 9, 11]),
            ("age is null", P.where("age").isNull(), [3]),
            ("city is null", P.where("city").isNull(), [4]),
            ("age is not null", P.where("age").isNotNull(), [1, 2, 4, 5, 6, 7, 8, 9, 10, 11]),
            ("age in [30, 41, 99]", P.where("age").in([30, 41, 99]), [2, 4]),
            ("age not in [30, 41]", P.where("age").notIn([30, 41]), [1, 5, 6, 7, 8, 9, 10, 11]),
            ("age in []", P.where("age").in([]), []),
            ("age not in []", P.where("age").notIn([]), Array(1...11)),
            ("age between 30 and 40", P.where("age").between(30, 40), [1, 4, 5, 7]),
            ("city == Paris (case-sensitive)", P.where(\.city == "Paris"), [1, 3, 7]),
            ("city contains ar", P.where("city").contains("ar"), [1, 3, 5, 7]),
            ("city begins with pa, any case", P.where("city").beginsWith("pa", caseInsensitive: true), [1, 3, 5, 7, 9]),
            ("city begins with Pa", P.where("city").beginsWith("Pa"), [1, 3, 7, 9]),
            ("name ends with Marie", P.where("name").endsWith("Marie"), [8]),
            ("name contains % (literal)", P.where("name").contains("%"), [9]),
            ("name contains _ (literal)", P.where("name").contains("_"), [9, 11]),
            ("name contains \\", P.where("name").contains("\\"), [9]),
            ("name like A_n%", P.where("name").like("A_n%"), [1, 8]),
            ("name like a_n% any case", P.where("name").like("a_n%", caseInsensitive: true), [1, 8]),
            ("like with a literal %", P.where("name").like(TextOperator.escapeLike("100%") + "%"), [9]),
            ("like with a literal _", P.where("name").like("%" + TextOperator.escapeLike("_real_") + "%"), [9]),
            ("like: an escaped _ matches only _", P.where("name").like(TextOperator.escapeLike("A_n") + "%"), []),
            ("eq(nil) is IS NULL", P.where("age").eq(.null), [3]),
            ("ne(nil) is IS NOT NULL", P.where("age").ne(.null), [1, 2, 4, 5, 6, 7, 8, 9, 10, 11]),
            ("score == 9.25", P.where(\.score == 9.25), [3, 6]),
            ("active == false", P.where(\.active == false), [3, 7, 9]),
            ("not city == Paris (nil excluded)", P.where(!(\.city == "Paris")), [2, 5, 6, 8, 9, 10, 11]),
            ("age < 20 or city == Berlin", P.where(\.age < 20 || \.city == "Berlin"), [6, 9, 11]),
            ("active and age > 30", P.where(\.active == true && \.age > 30), [1, 2, 5, 8, 10]),
            ("joined > day 2", P.where(\.joined > day2), [4, 9, 10]),
            ("unicode equality", P.where(\.name == "Ünïcødé 🐶"), [10]),
            ("SQL-looking value", P.where(\.name == "'; DROP TABLE conformance_person; --"), [11]),
            ("chained MotionModel style", P.where("city").eq("Paris").and("age").gt(33), [1, 7]),
        ]
        for (name, query, expected) in cases {
            try c.expressible(name) {
                c.equal(try ids(query), expected, name)
                c.equal(try query.count(), expected.count, "\(name): count")
            }
        }
        let unknown = c.expectThrows(QueryError.self, "an unknown column") { _ = try P.where("nope").eq(1).all() }
        c.expect(unknown != nil, "unknown column is a QueryError")
        c.expectThrows(QueryError.self, "an uncastable value") { _ = try P.where("age").eq("not a number").all() }
        c.expectThrows(QueryError.self, "the builder refuses < nil (use isNull)") { _ = try P.where("age").gt(.null).all() }
        // The adapter itself, given a NULL right-hand side: unknown, so no row, for every operator.
        for op in [ComparisonOperator.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual] {
            let age = StoreQuery(schema: P.schema, predicate: .compare(column: 2, op, .null))
            try c.expressible("age \(op.rawValue) NULL") {
                c.equal(try c.store.fetch(age).count, 0, "age \(op.rawValue) NULL matches nothing")
                c.equal(try c.store.count(age), 0, "count of age \(op.rawValue) NULL")
            }
            let negated = StoreQuery(schema: P.schema, predicate: .not(.compare(column: 3, op, .null)))
            try c.expressible("NOT (city \(op.rawValue) NULL)") {
                c.equal(try c.store.fetch(negated).count, 0, "NOT (city \(op.rawValue) NULL) matches nothing")
            }
        }
    }

    static func ordering(_ c: ConformanceChecker) throws {
        try P.seed()
        c.equal(try ids(P.query().order(by: \.score, .descending)), [10, 3, 6, 1, 4, 2, 5, 7, 8, 11, 9], "score descending, ties in store order")
        c.equal(try ids(P.query().order(by: \.age)), [3, 9, 11, 6, 4, 1, 7, 5, 2, 8, 10], "age ascending, nil first")
        c.equal(try ids(P.query().order(by: \.age, .descending)), [10, 8, 2, 5, 7, 1, 4, 6, 11, 9, 3], "age descending, nil last")
        c.equal(
            try ids(P.query().order(by: \.city).order(by: \.score, .descending)), [4, 11, 6, 9, 3, 1, 7, 2, 8, 10, 5],
            "city then score descending (binary string order)")
        c.equal(try ids(P.query().order(by: \.active)), [3, 7, 9, 1, 2, 4, 5, 6, 8, 10, 11], "bool order is stable")
        c.equal(try ids(P.query()), Array(1...11), "store order without a sort")
    }

    static func paging(_ c: ConformanceChecker) throws {
        try P.seed()
        c.equal(try ids(P.query().limit(3)), [1, 2, 3], "limit")
        c.equal(try ids(P.query().offset(9).limit(5)), [10, 11], "offset past most rows")
        c.equal(try ids(P.query().offset(20)), [], "offset past the end")
        c.equal(try ids(P.query().limit(0)), [], "limit 0")
        c.equal(try P.query().first()?.id, 1, "first")
        c.equal(try P.query().last()?.id, 11, "last")
        c.equal(try P.query().first(2).compactMap(\.id), [1, 2], "first(2)")
        c.equal(try P.query().last(2).compactMap(\.id), [10, 11], "last(2)")
        c.equal(try P.where(\.score > 100).order(by: \.age).last()?.id, 10, "last of a sorted query")
        let page = try P.query().page(2, per: 4)
        c.equal(page.items.compactMap(\.id), [5, 6, 7, 8], "page 2 of 4")
        c.equal(page.total, 11, "page total")
        c.equal(page.pageCount, 3, "page count")
        c.equal(try P.query().page(4, per: 4).items.count, 0, "a page past the end is empty")
        c.equal(try ids(P.where("age").isNotNull().order(by: \.age).offset(1).limit(2)), [11, 6], "where, order, offset, limit")
        c.equal(try P.query().limit(3).count(), 3, "count honours limit")
        c.equal(try P.where(\.city == "Paris").exists(), true, "exists")
        c.equal(try P.where(\.city == "Rome").exists(), false, "exists (none)")
        c.equal(try P.query().order(by: \.name).limit(2).pluck(\.name), ["'; DROP TABLE conformance_person; --", "100% _real_ \\o/"], "pluck")
        try rowLocks(c)
    }

    /// `lockForUpdate()`: inside a transaction (nothing else holding the rows) the same rows
    /// as without the lock, whatever the wait; an adapter that cannot lock rows refuses the
    /// fetch as `.invalidRequest` instead of running it unlocked.
    static func rowLocks(_ c: ConformanceChecker) throws {
        guard c.store.rowLockSupport != .unsupported else {
            let error = c.expectThrows(StoreError.self, "lockForUpdate() on an adapter that cannot lock rows") {
                _ = try P.where(\.age > 40).lockForUpdate().all()
            }
            c.equal(error?.kind, .invalidRequest, "lockForUpdate() refused as .invalidRequest")
            return
        }
        try c.store.transaction {
            c.equal(try ids(P.where(\.age > 40).lockForUpdate()), [2, 8, 10], "lockForUpdate()")
            c.equal(try ids(P.query().order(by: \.age, .descending).limit(2).lockForUpdate(.skipLocked)), [10, 8], "lockForUpdate(.skipLocked) with order and limit")
            c.equal(try ids(P.where(\.city == "Paris").lockForUpdate(.noWait)), [1, 3, 7], "lockForUpdate(.noWait)")
        }
        c.equal(try ids(P.where(\.age > 40).lockForUpdate()), [2, 8, 10], "lockForUpdate() outside a transaction")
    }

    static func aggregates(_ c: ConformanceChecker) throws {
        try P.seed()
        c.equal(try P.count(), 11, "count")
        c.equal(try P.where(\.city == "Paris").count(), 3, "count where")
        c.equal(try P.query().sum("age"), .int(352), "sum of ints (nil skipped)")
        c.equal(try P.query().average("age"), .double(35.2), "average (nil skipped)")
        c.equal(try P.query().min("age"), .int(0), "min")
        c.equal(try P.query().max("age"), .int(77), "max")
        c.equal(try P.query().max("score"), .double(1e10), "max of doubles")
        c.equal(try P.query().sum("score"), .double(10_000_000_054), "sum of doubles")
        c.equal(try P.query().min("name"), .string("'; DROP TABLE conformance_person; --"), "min of strings")
        c.equal(try P.where(\.city == "Rome").sum("age"), .null, "sum of nothing is nil")
        c.equal(try P.where(\.city == "Rome").average("age"), .null, "average of nothing is nil")
        c.equal(try P.where(\.city == "Rome").count(), 0, "count of nothing")
        c.equal(try P.query().order(by: \.score).limit(3).sum("score"), .double(2.5), "aggregate over a window")
        let groups = try P.query().group(by: "city").count()
        let byCity = Dictionary(uniqueKeysWithValues: groups.map { ($0.key, $0.value) })
        c.equal(groups.count, 8, "groups (nil is a group)")
        c.equal(byCity[.string("Paris")], .int(3), "Paris group")
        c.equal(byCity[.string("Seattle")], .int(2), "Seattle group")
        c.equal(byCity[.null], .int(1), "nil group")
        let sums = try P.where(\.active == true).group(by: "city").sum("score")
        c.equal(sums.first { $0.key == .string("Seattle") }?.value, .double(10), "grouped sum")
        c.equal(try P.where(\.city == "Seattle").updateAll(["active": false]), 2, "updateAll counts changed rows")
        c.equal(try P.where(\.city == "Seattle").updateAll(["active": false]), 0, "updateAll of unchanged rows")
        c.equal(try P.where(\.active == false).count(), 5, "updateAll stored")
        // A windowed update: exactly the ordered page, the same on every adapter.
        let window = P.order(by: \.score, .descending).order(by: \.name).limit(3).offset(1)
        let expected = try window.pluck(\.name)
        c.equal(expected, ["Finn", "cara", "Ann"], "the window (score desc, name; 3 after the first)")
        c.equal(try window.updateAll(["city": "Window"]), 3, "a windowed updateAll changes the window's rows")
        c.equal(try P.where(\.city == "Window").order(by: \.name).pluck(\.name), expected.sorted(), "…and only them")
        c.equal(try P.where(\.age < 20).deleteAll(), 2, "deleteAll counts")
        c.equal(try P.count(), 9, "deleteAll stored")
        c.equal(try ids(P.query()), [1, 2, 3, 4, 5, 6, 7, 8, 10], "store order after deletes")
    }
}
