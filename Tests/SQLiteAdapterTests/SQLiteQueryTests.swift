import ArrayAdapter
import Foundation
import SQLiteAdapter
import Testing

/// Every query operator on SQLite, compared with the in-memory engine on the same data.
@Suite struct SQLiteQueryTests {
    /// Runs `check` with an ArrayAdapter and a SQLiteAdapter seeded alike.
    func withBoth(_ check: (ArrayAdapter, SQLiteAdapter) throws -> Void) throws {
        let memory = ArrayAdapter()
        let sqlite = try SQLiteAdapter()
        try seedCitizens(memory)
        try seedCitizens(sqlite)
        try check(memory, sqlite)
    }

    static let conditions: [(String, QueryCondition<Citizen>)] = [
        ("==", \.name == "Bob"), ("!=", \.age != 30), ("<", \.age < 35), ("<=", \.score <= 6),
        (">", \.joined > Date(timeIntervalSince1970: 1_100_000)), (">=", \.age >= 40),
        ("== nil", \.city == nil), ("!= nil", \.city != nil), ("bool", \.active == false),
        ("in", .in(\.city, ["Paris", "Berlin"])), ("in with nil", .in(\.age, [30, 41])),
        ("in []", .in(\.age, [])), ("notIn", .notIn(\.city, ["Paris"])), ("notIn []", .notIn(\.age, [])),
        ("between", .between(\.age, 30, 40)), ("between dates", .between(\.joined, Date(timeIntervalSince1970: 1_050_000), Date(timeIntervalSince1970: 1_300_000))),
        ("contains", .contains(\.name, "an")), ("contains ci", .contains(\.name, "AN", caseInsensitive: true)),
        ("contains %", .contains(\.name, "0% _")), ("contains quote", .contains(\.name, "'; DROP")),
        ("beginsWith", .beginsWith(\.city, "Pa")), ("beginsWith ci", .beginsWith(\.city, "pa", caseInsensitive: true)),
        ("endsWith", .endsWith(\.name, "🐶")), ("endsWith ci", .endsWith(\.city, "IS", caseInsensitive: true)),
        ("like", .like(\.city, "P_ris")), ("like ci", .like(\.city, "p%", caseInsensitive: true)),
        ("like escaped", .like(\.city, "Pa\\%is")), ("like glob chars", .like(\.name, "%[*?]%")),
        ("unicode ci", .contains(\.city, "zÜ", caseInsensitive: true)), ("glob star", .contains(\.name, "*")),
        ("and", \.city == "Paris" && \.active == true), ("or", \.age < 30 || \.city == "Seattle"),
        ("not", !(\.city == "Paris")), ("not null-safe", !(\.age > 35)),
        ("nested", (\.age > 30 && !(\.city == "Seattle")) || (.isNull(\.age) && \.score > 9)),
        ("not or", !(\.age < 30 || .in(\.city, ["Paris", "paris"]))),
        ("sql-looking value", \.name == "'; DROP TABLE citizen; --"),
        ("quoted value", \.city == "\"quoted\""),
    ]

    @Test func everyOperatorMatchesTheInMemoryEngine() throws {
        try withBoth { (memory: ArrayAdapter, sqlite: SQLiteAdapter) throws in
            for (label, condition) in Self.conditions {
                let a = try Citizen.where(condition).using(memory).all().map(\.id)
                let b = try Citizen.where(condition).using(sqlite).all().map(\.id)
                #expect(a == b, "\(label)")
                let ca = try Citizen.where(condition).using(memory).count()
                let cb = try Citizen.where(condition).using(sqlite).count()
                #expect(ca == cb, "\(label) count")
            }
            #expect(try Citizen.where(\.name == "'; DROP TABLE citizen; --").using(sqlite).count() == 1)
            #expect(try Citizen.query(in: sqlite).count() == citizens.count)  // the table survived
        }
    }

    @Test func orderingWithTiesAndNilsLimitsAndOffsets() throws {
        try withBoth { (memory: ArrayAdapter, sqlite: SQLiteAdapter) throws in
            let shapes: [(String, Query<Citizen>)] = [
                ("score desc", Citizen.order(by: \.score, .descending)),
                ("age asc (nil first)", Citizen.order(by: \.age)),
                ("age desc (nil last)", Citizen.order(by: \.age, .descending)),
                ("city, score", Citizen.order(by: "city").order(by: "score", .descending)),
                ("ties keep store order", Citizen.order(by: \.active)),
                ("name binary order", Citizen.order(by: \.name)),
                ("joined", Citizen.order(by: \.joined, .descending)),
                ("limit", Citizen.order(by: \.score).limit(3)),
                ("offset", Citizen.order(by: \.score).offset(4)),
                ("window", Citizen.where(\.active == true).order(by: \.age).offset(2).limit(3)),
                ("limit 0", Citizen.order(by: \.age).limit(0)),
                ("offset past end", Citizen.order(by: \.age).offset(100)),
            ]
            for (label, query) in shapes {
                #expect(try query.using(memory).all().map(\.id) == query.using(sqlite).all().map(\.id), "\(label)")
                #expect(try query.using(memory).count() == query.using(sqlite).count(), "\(label) count")
            }
            let a = try Citizen.order(by: \.score).using(memory).page(2, per: 4)
            let b = try Citizen.order(by: \.score).using(sqlite).page(2, per: 4)
            #expect(a.items.map(\.id) == b.items.map(\.id))
            #expect(a.total == b.total && a.pageCount == b.pageCount)
            #expect(try Citizen.query(in: memory).last(2).map(\.id) == Citizen.query(in: sqlite).last(2).map(\.id))
        }
    }

    @Test func aggregatesAndGroupsMatch() throws {
        try withBoth { (memory: ArrayAdapter, sqlite: SQLiteAdapter) throws in
            for store in [memory, sqlite] as [any PersistenceAdapter] {
                let q = Citizen.query(in: store)
                #expect(try q.sum("age") == .int(352))
                #expect(try q.sum(\.score) == 10_000_000_054)
                #expect(try q.min("age") == .int(0))
                #expect(try q.max(\.joined) == Date(timeIntervalSince1970: 1_000_000 + 4 * 86_400.25))
                #expect(try q.where(\.age > 1000).sum("age") == .null)
                #expect(try q.where(\.age > 1000).average("age") == .null)
                #expect(try q.where(\.age > 1000).count() == 0)
                #expect(try q.min(\.active) == false)
            }
            let functions: [(GroupedQuery<Citizen>) throws -> [AggregateGroup]] = [
                { try $0.count() }, { try $0.count("age") }, { try $0.sum("score") }, { try $0.average("age") },
                { try $0.min("name") }, { try $0.max("joined") },
            ]
            for run in functions {
                let a = try run(Citizen.query(in: memory).group(by: "city"))
                let b = try run(Citizen.query(in: sqlite).group(by: "city"))
                #expect(a == b)
                let c = try run(Citizen.where(\.score > 5).using(memory).group(by: "active", "city"))
                let d = try run(Citizen.where(\.score > 5).using(sqlite).group(by: "active", "city"))
                #expect(c == d)
            }
            let windowed = try Citizen.order(by: \.score).limit(4).using(sqlite).sum("score")
            #expect(windowed == (try Citizen.order(by: \.score).limit(4).using(memory).sum("score")))
            #expect(try Citizen.query(in: sqlite).pluck(\.name) == Citizen.query(in: memory).pluck(\.name))
        }
    }

    @Test func sumOverflowIsAStoreError() throws {
        try withSQLite { (store: SQLiteAdapter) throws in
            for big in [Int64.max, 1] {
                let g = Gadget()
                g.big = big
                try g.save()
            }
            #expect(throws: StoreError.self) { try Gadget.query(in: store).sum("big") }
        }
    }

    @Test func batchOperationsCountWhatChanged() throws {
        try withBoth { (memory: ArrayAdapter, sqlite: SQLiteAdapter) throws in
            for store in [memory, sqlite] as [any PersistenceAdapter] {
                #expect(try Citizen.where(\.city == "Paris").using(store).updateAll(["active": true]) == 2)
                #expect(try Citizen.order(by: \.score).limit(3).using(store).deleteAll() == 3)
            }
            #expect(try Citizen.query(in: memory).all().map(\.id) == Citizen.query(in: sqlite).all().map(\.id))
            #expect(try Citizen.query(in: memory).pluck("active") == Citizen.query(in: sqlite).pluck("active"))
        }
    }
}
