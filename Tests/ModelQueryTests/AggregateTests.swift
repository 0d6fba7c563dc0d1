import ArrayAdapter
import Foundation
import Testing

@Suite struct AggregateTests {
    @Test func aggregatesOverData() throws {
        try withPeople { (_: ArrayAdapter) throws in
            #expect(try Person.query().sum("age") == .int(257))
            #expect(try Person.query().sum(\.age) == 257)
            #expect(try Person.query().sum("score") == .double(55.5))
            #expect(try Person.query().average("age") == .double(257.0 / 7))  // nulls ignored
            #expect(try Person.query().average(\.score) == 55.5 / 8)
            #expect(try Person.query().min(\.age) == 25)
            #expect(try Person.query().max(\.age) == 52)
            #expect(try Person.query().min("city") == "Berlin")  // nulls ignored
            #expect(try Person.query().max("city") == "paris")  // byte order
            #expect(try Person.query().sum("active") == .int(6))  // bools sum as 0/1
            #expect(try Person.where(\.city == "Paris").average("score") == .double((8.5 + 9.25 + 5.5) / 3))
            #expect(try Person.order(by: \.score, .descending).limit(2).sum(\.score) == 18.5)  // over the window
        }
    }

    @Test func emptyResultsAreDefined() throws {
        try withPeople { (_: ArrayAdapter) throws in
            let none = Person.where(\.name == "nobody")
            #expect(try none.count() == 0)
            #expect(try none.sum("age") == .null)
            #expect(try none.sum(\.score) == nil)
            #expect(try none.average(\.age) == nil)
            #expect(try none.min(\.age) == nil)
            // Optional columns give a flat optional, so nil means "no values" and nothing else.
            let emptyAgeSum: Int? = try none.sum(\.age)
            #expect(emptyAgeSum == nil)
            let ageSum: Int? = try Person.query().sum(\.age)
            #expect(ageSum == 257)
            let youngest: Int? = try Person.query().min(\.age)
            #expect(youngest == 25)
            let noJoin: Date? = try none.max(\.joined)
            #expect(noJoin == nil)
            #expect(try none.max("name") == .null)
            #expect(try Person.where(\.name == "cara").sum("age") == .null)  // only nulls
            #expect(try none.group(by: "city").count().isEmpty)
        }
        try withStore { (_: ArrayAdapter) throws in
            #expect(try Person.query().sum("score") == .null)
            #expect(try Person.query().average("score") == .null)
        }
    }

    @Test func groupedAggregates() throws {
        try withPeople { (_: ArrayAdapter) throws in
            let counts = try Person.query().group(by: "city").count()
            #expect(counts.map(\.key) == [nil, "Berlin", "Paris", "Seattle", "paris"])  // keys ascending, nulls first
            #expect(counts.map(\.value) == [1, 1, 3, 2, 1])
            let sums = try Person.where(\.active == true).group(by: "city").sum("score")
            #expect(sums.map(\.value) == [7.0, 9.25, 8.5, 10.0, 6.0])
            let ages = try Person.query().group(by: "city").count("age")  // non-null ages per city
            #expect(ages.map(\.value) == [1, 1, 2, 2, 1])
            let maxima = try Person.query().group(by: "active", "city").max("age")
            #expect(maxima.first?.keys == [false, "Paris"] && maxima.first?.value == 35)
            #expect(maxima.count == 6)
            #expect(try Person.query().group(by: "city").average("age").map(\.value)[2] == .double(34.5))
            #expect(try Person.query().group(by: "city").min("name").map(\.value) == ["Dan", "Finn", "Ann", "Ann Marie", "Eve"])
        }
    }

    @Test func integerOverflowIsAnErrorNotAWrongAnswer() throws {
        try withStore { (_: ArrayAdapter) throws in
            final class Big: Model {
                @Column var n: Int64 = 0
                init() {}
            }
            try Big.create(["n": .int(.max)])
            try Big.create(["n": 1])
            #expect(throws: StoreError.self) { try Big.query().sum("n") }
            #expect(try Big.query().average("n") != .null)
            #expect(try Big.query().max(\.n) == .max)
        }
    }

    @Test func aggregatesCheckColumnTypes() throws {
        try withPeople { (_: ArrayAdapter) throws in
            let error = try #require(throws: QueryError.self) { try Person.query().sum("name") }
            #expect(error.kind == .invalidOperator && error.column == "name")
            #expect(throws: QueryError.self) { try Person.query().average("joined") }
            #expect(throws: QueryError.self) { try Person.query().group(by: "nope").count() }
            #expect(throws: QueryError.self) { try Person.query().group(by: "city").sum("nope") }
            #expect(try Person.query().min("joined") != .null)
        }
    }
}
