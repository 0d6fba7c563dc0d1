import ArrayAdapter
import Foundation
import Testing

@Suite struct WindowTests {
    @Test func limitOffsetFirstLast() throws {
        try withPeople { (_: ArrayAdapter) throws in
            let byAge = Person.where(\.age != nil).order(by: \.age)  // Finn 25, Dan 30, Ann 34, Gus 35, Eve 40, Bob 41, Ann Marie 52
            #expect(try names(byAge.limit(3).all()) == ["Finn", "Dan", "Ann"])
            #expect(try names(byAge.offset(5).all()) == ["Bob", "Ann Marie"])
            #expect(try names(byAge.offset(2).limit(2).all()) == ["Ann", "Gus"])
            #expect(try byAge.offset(10).all().isEmpty)
            #expect(try byAge.limit(0).all().isEmpty)
            #expect(try byAge.first()?.name == "Finn")
            #expect(try names(byAge.first(2)) == ["Finn", "Dan"])
            #expect(try names(byAge.limit(1).first(3)) == ["Finn"])
            #expect(try byAge.last()?.name == "Ann Marie")
            #expect(try names(byAge.last(3)) == ["Eve", "Bob", "Ann Marie"])
            #expect(try names(byAge.limit(4).last(2)) == ["Ann", "Gus"])  // the tail of the window
            #expect(try names(byAge.last(20)).count == 7)
            #expect(try Person.first()?.name == "Ann" && Person.last()?.name == "Ann Marie")
            #expect(try Person.where(\.name == "nobody").first() == nil)
            #expect(try Person.where(\.name == "nobody").last() == nil)
            #expect(throws: QueryError.self) { try byAge.limit(-1).all() }
            #expect(throws: QueryError.self) { try byAge.offset(-2).count() }
            #expect(throws: QueryError.self) { try byAge.first(-1) }
        }
    }

    @Test func countExistsAndPluck() throws {
        try withPeople { (_: ArrayAdapter) throws in
            #expect(try Person.query().count() == 8)
            #expect(try Person.query().limit(3).count() == 3)
            #expect(try Person.query().offset(6).count() == 2)
            #expect(try Person.where(\.city == "Berlin").exists())
            #expect(try !Person.where(\.city == "Rome").exists())
            #expect(try !Person.query().limit(0).exists())
            #expect(try Person.where(\.city == "Seattle").pluck("name") == ["Bob", "Ann Marie"])
            #expect(try Person.order(by: \.age).limit(3).pluck(\.age) == [nil, 25, 30])
            #expect(try Person.where(\.age > 40).pluck(\.name) == ["Bob", "Ann Marie"])
            #expect(throws: QueryError.self) { try Person.query().pluck("nope") }
        }
    }

    @Test func pages() throws {
        try withPeople { (_: ArrayAdapter) throws in
            let query = Person.order(by: "name")
            let first = try query.page(1, per: 3)
            #expect(names(first.items) == ["Ann", "Ann Marie", "Bob"])
            #expect(first.total == 8 && first.pageCount == 3 && first.hasNext && !first.hasPrevious)
            let last = try query.page(3, per: 3)
            #expect(names(last.items) == ["Gus", "cara"] && !last.hasNext && last.hasPrevious)
            #expect(try query.page(4, per: 3).items.isEmpty)
            #expect(try Person.where(\.name == "nobody").page(1, per: 5).pageCount == 0)
            let filtered = try query.filter { $0.active }.page(2, per: 4)
            #expect(names(filtered.items) == ["Eve", "Finn"] && filtered.total == 6 && filtered.pageCount == 2)
            #expect(throws: QueryError.self) { try query.page(0, per: 3) }
            #expect(throws: QueryError.self) { try query.page(1, per: 0) }
        }
    }

    @Test func blockFindersRunInSwift() throws {
        try withPeople { (_: ArrayAdapter) throws in
            // Closure literals stay outside #expect: with Swift 6.3, a closure inside the macro's
            // argument can be confused with a later closure in the same function.
            let withN = try Person.find { $0.name.contains("n") }
            #expect(names(withN) == ["Ann", "Dan", "Finn", "Ann Marie"])
            let chained = Person.where(\.city == "Paris").filter { $0.score > 6 }.order(by: \.score, .descending)
            #expect(try names(chained.all()) == ["cara", "Ann"])
            #expect(try chained.count() == 2)
            #expect(try names(chained.offset(1).all()) == ["Ann"])
            #expect(try chained.sum(\.score) == 17.75)
        }
    }
}
