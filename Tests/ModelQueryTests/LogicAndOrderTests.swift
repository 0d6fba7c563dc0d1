import ArrayAdapter
import Foundation
import Testing

@Suite struct LogicTests {
    @Test func andOrNotNestToAnyDepth() throws {
        try withPeople { (_: ArrayAdapter) throws in
            // MotionModel chain: and / or
            #expect(try names(Person.where("city").eq("Paris").and("age").gt(34).all()) == ["Gus"])
            #expect(try names(Person.where("city").eq("Berlin").or("age").gt(45).all()) == ["Finn", "Ann Marie"])
            // typed, nested
            let nested = Person.where(
                (\.city == "Paris" && (\.age < 35 || \.score > 9)) || !(\.active == true) && .beginsWith(\.name, "G"))
            #expect(try names(nested.all()) == ["Ann", "cara", "Gus"])
            let deeper = Person.where(!(!(\.age > 30) || .isNull(\.city)) && !(.in(\.city, ["Seattle"])))
            #expect(try names(deeper.all()) == ["Ann", "Eve", "Gus"])
            #expect(try Person.query().where(\.age > 30).negated().count() == 2)  // Dan, Finn (cara's nil is unknown)
        }
    }

    @Test func nullSemanticsFollowSQL() throws {
        try withPeople { (_: ArrayAdapter) throws in
            // A comparison with a null column is unknown: neither it nor its negation matches.
            let young = try Person.where(\.age < 36).count()
            let notYoung = try Person.where(!(\.age < 36)).count()
            #expect(young + notYoung == 7)
            // unknown OR true is true; unknown AND false is false
            #expect(try Person.where(\.age < 36 || \.name == "cara").count() == 5)
            #expect(try Person.where(!(\.age < 36 && \.name == "nobody")).count() == 8)
        }
    }
}

@Suite struct OrderingTests {
    @Test func severalKeysStableTiesAndNils() throws {
        try withPeople { (_: ArrayAdapter) throws in
            // score ties (6.0: Bob, Eve; 9.25: cara, Finn) keep store order
            #expect(
                try names(Person.order(by: "score").all()) == ["Ann Marie", "Gus", "Bob", "Eve", "Dan", "Ann", "cara", "Finn"])
            #expect(
                try names(Person.order(by: \.score, .descending).all())
                    == ["cara", "Finn", "Ann", "Dan", "Bob", "Eve", "Gus", "Ann Marie"])
            #expect(
                try names(Person.order(by: "score", .descending).order(by: "name", .descending).all())
                    == ["cara", "Finn", "Ann", "Dan", "Eve", "Bob", "Gus", "Ann Marie"])  // bytes: "c" > "F"
            // nulls first ascending, last descending
            #expect(try Person.order(by: \.age).first()?.name == "cara")
            #expect(try Person.order(by: \.city, .descending).last()?.name == "Dan")
            // strings compare by bytes: uppercase before lowercase
            #expect(try Person.order(by: "city").pluck("city") == [nil, "Berlin", "Paris", "Paris", "Paris", "Seattle", "Seattle", "paris"])
        }
    }

    @Test func comparatorSortsInSwift() throws {
        try withPeople { (_: ArrayAdapter) throws in
            let byLength = Person.query().sorted { $0.name.count < $1.name.count }
            #expect(try names(byLength.all()) == ["Ann", "Bob", "Dan", "Eve", "Gus", "cara", "Finn", "Ann Marie"])
            #expect(try names(byLength.limit(2).offset(1).all()) == ["Bob", "Dan"])
            #expect(try byLength.last()?.name == "Ann Marie")
        }
    }

    @Test func unknownSortColumnIsAnError() throws {
        try withPeople { (_: ArrayAdapter) throws in
            let error = try #require(throws: QueryError.self) { try Person.order(by: "nmae").all() }
            #expect(error.kind == .unknownColumn && error.column == "nmae")
            #expect((error as any SwiftModelError).modelName == "Person" && (error as any SwiftModelError).columnName == "nmae")
        }
    }
}
