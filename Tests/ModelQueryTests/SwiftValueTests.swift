import ArrayAdapter
import Foundation
import Testing

/// Ordinary Swift values wherever a value is passed, and key-path forms of grouping and
/// batch updates: no `.string(…)`/`.date(…)` wrapping for variables.
@Suite struct SwiftValueTests {
    @Test func conditionsTakeSwiftVariables() throws {
        try withPeople { (_: ArrayAdapter) throws in
            let name = "Ann", minimum = 40, cities = ["Berlin", "Seattle"], missing: String? = nil
            let since = Date(timeIntervalSince1970: 1_000_000 + 2 * 86_400)
            #expect(try Person.where("name").eq(name).count() == 1)
            #expect(try Person.where("age").gte(minimum).pluck(\.name) == ["Bob", "Eve", "Ann Marie"])
            #expect(try Person.where("city").in(cities).pluck(\.name) == ["Bob", "Finn", "Ann Marie"])
            #expect(try Person.where("city").notIn(Set(cities)).pluck(\.name) == ["Ann", "cara", "Eve", "Gus"])
            #expect(try Person.where("age").between(30...40).pluck(\.name) == ["Ann", "Dan", "Eve", "Gus"])
            #expect(try Person.where("joined").lt(since).count() == 2)
            #expect(try Person.where("city").eq(missing).pluck(\.name) == ["Dan"])
            #expect(throws: QueryError.self) { _ = try Person.where("age").eq("old" as String).all() }
        }
    }

    @Test func dictionariesTakeSwiftVariables() throws {
        try withPeople { (_: ArrayAdapter) throws in
            let name = "Zed", age = 33, joined = Date(timeIntervalSince1970: 5_000_000), city: String? = nil
            let zed = try Person(["name": name, "age": age, "joined": joined, "city": city, "score": 1.5])
            #expect(zed.name == "Zed" && zed.age == 33 && zed.joined == joined && zed.city == nil && zed.score == 1.5)
            try zed.set(["age": age + 1, "active": false])
            #expect(zed.age == 34 && zed.active == false)
            let created = try Person.create(["name": name + "2", "age": Int32(7)])
            #expect(try Person.find(created.id ?? -1)?.age == 7)
            #expect(throws: CastError.self) { try zed.set(["age": "thirty"]) }
            #expect(zed.age == 34, "all or nothing")
        }
    }

    @Test func batchUpdatesAndGroupingTakeKeyPaths() throws {
        try withPeople { (_: ArrayAdapter) throws in
            let level = 10.0
            #expect(try Person.where(\.city == "Paris").updateAll(\.score, to: level) == 3)
            #expect(try Person.where(\.score == 10.0).count() == 3)
            #expect(try Person.where(\.city == "Seattle").updateAll([\Person.active: false, \Person.score: 0.5]) == 2)
            #expect(try Person.where(\.city == "Seattle").pluck(\.score) == [0.5, 0.5])
            #expect(try Person.where(\.city == "Berlin").updateAll(["score": level]) == 1)
            let byKeyPath = try Person.query().group(by: \.city).count()
            let byName = try Person.query().group(by: "city").count()
            #expect(byKeyPath == byName && !byKeyPath.isEmpty)
            #expect(throws: QueryError.self) { _ = try Person.query().group(by: \Person.log).count() }
        }
    }
}
