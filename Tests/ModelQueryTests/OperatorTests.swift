import ArrayAdapter
import Foundation
import Testing

/// Every operator, in both builder styles, with typical values, nils, empty sets and casting.
@Suite struct OperatorTests {
    @Test func comparisonsInBothStyles() throws {
        try withPeople { (_: ArrayAdapter) throws in
            #expect(try names(Person.where("name").eq("Bob").all()) == ["Bob"])
            #expect(try names(Person.where(\.name == "Bob").all()) == ["Bob"])
            #expect(try Person.where("age").ne(30).count() == 6)  // nil age matches neither = nor <>
            #expect(try Person.where(\.age != 30).count() == 6)
            #expect(try names(Person.where("age").lt(30).all()) == ["Finn"])
            #expect(try names(Person.where(\.age <= 30).all()) == ["Dan", "Finn"])
            #expect(try names(Person.where("age").gt(41).all()) == ["Ann Marie"])
            #expect(try names(Person.where(\.age >= 41).all()) == ["Bob", "Ann Marie"])
            #expect(try Person.where(\.score > 9).count() == 2)
            let day = Date(timeIntervalSince1970: 1_000_000 + 6 * 86_400)
            #expect(try names(Person.where(\.joined >= day).all()) == ["Gus", "Ann Marie"])
            #expect(try names(Person.where(\.active == false).all()) == ["cara", "Gus"])
        }
    }

    @Test func nilComparisonsMeanIsNull() throws {
        try withPeople { (_: ArrayAdapter) throws in
            #expect(try names(Person.where("age").eq(nil).all()) == ["cara"])
            #expect(try names(Person.where(\.city == nil).all()) == ["Dan"])
            #expect(try Person.where(\.city != nil).count() == 7)
            #expect(try names(Person.where("age").isNull().all()) == ["cara"])
            #expect(try Person.where("age").isNotNull().count() == 7)
            #expect(try names(Person.where(.isNull(\.city)).all()) == ["Dan"])
            #expect(try Person.where(.isNotNull(\.age)).count() == 7)
            #expect(throws: QueryError.self) { try Person.where("age").gt(nil).all() }
        }
    }

    @Test func membershipAndEmptySets() throws {
        try withPeople { (_: ArrayAdapter) throws in
            #expect(try names(Person.where("city").in(["Berlin", "Seattle"]).all()) == ["Bob", "Finn", "Ann Marie"])
            #expect(try Person.where(.in(\.age, [30, 25, 99])).count() == 2)
            #expect(try Person.where("city").in([]).count() == 0)  // matches nothing
            #expect(try Person.where("city").notIn([]).count() == 8)  // everything, even nil
            #expect(try Person.where(.notIn(\.city, ["Paris", "Seattle"])).count() == 2)  // nil city is unknown
            #expect(try Person.where("age").in(["30", 41]).count() == 2)  // cast like assignment
        }
    }

    @Test func betweenIsInclusive() throws {
        try withPeople { (_: ArrayAdapter) throws in
            #expect(try names(Person.where("age").between(30, 35).all()) == ["Ann", "Dan", "Gus"])
            #expect(try Person.where(.between(\.score, 6.0, 8.5)).count() == 4)
            #expect(try Person.where("age").not.between(30, 35).count() == 4)  // nil excluded both ways
        }
    }

    @Test func stringMatching() throws {
        try withPeople { (_: ArrayAdapter) throws in
            #expect(try names(Person.where("name").contains("nn").all()) == ["Ann", "Finn", "Ann Marie"])
            #expect(try names(Person.where("name").beginsWith("ann", caseInsensitive: true).all()) == ["Ann", "Ann Marie"])
            #expect(try Person.where("name").beginsWith("ann").count() == 0)
            #expect(try names(Person.where(.endsWith(\.name, "IE", caseInsensitive: true)).all()) == ["Ann Marie"])
            #expect(try names(Person.where("city").like("%aris").all()) == ["Ann", "cara", "Eve", "Gus"])
            #expect(try names(Person.where("city").like("P_ris").all()) == ["Ann", "cara", "Gus"])
            #expect(try Person.where(.like(\.city, "PARIS", caseInsensitive: true)).count() == 4)
            #expect(try names(Person.where(.contains(\.city, "eat")).all()) == ["Bob", "Ann Marie"])
            #expect(try Person.where("name").not.contains("a").count() == 5)  // case-sensitive: "Ann" has no "a"
        }
    }

    @Test func likeInputCanBeEscaped() throws {
        try withStore { (store: ArrayAdapter) throws in
            for name in ["100% cotton", "100 percent", "a_b", "axb"] { try Person.create(["name": .string(name)]) }
            #expect(try Person.where("name").contains("%").count() == 1)  // contains is literal
            #expect(try Person.where("name").like("100%").count() == 2)
            #expect(try Person.where("name").like(TextOperator.escapeLike("100%") + "%").count() == 1)
            #expect(try names(Person.where("name").like(TextOperator.escapeLike("a_b")).all()) == ["a_b"])
        }
    }

    @Test func valuesAreCastToTheColumnType() throws {
        try withPeople { (_: ArrayAdapter) throws in
            #expect(try Person.where("age").eq("34").count() == 1)
            #expect(try Person.where("score").gt(9).count() == 2)  // int literal against a double column
            #expect(try Person.where("active").eq("false").count() == 2)
            #expect(try Person.where("joined").lt("1970-01-13T13:46:40Z").count() == 1)
            let error = try #require(throws: QueryError.self) { try Person.where("age").eq("thirty").all() }
            #expect(error.kind == .invalidValue && error.column == "age" && error.value == "thirty")
            #expect(throws: QueryError.self) { try Person.where("name").eq(["a"]).count() }
        }
    }

    @Test func textOperatorsNeedStringColumns() throws {
        try withPeople { (_: ArrayAdapter) throws in
            let error = try #require(throws: QueryError.self) { try Person.where("age").contains("3").all() }
            #expect(error.kind == .invalidOperator && error.column == "age")
            #expect(throws: QueryError.self) { try Person.where(.like(\.score, "1%")).count() }
        }
    }

    @Test func idPredicatesUseTheIndex() throws {
        try withPeople { (_: ArrayAdapter) throws in
            #expect(try names(Person.where(\.id == 3).all()) == ["cara"])
            #expect(try names(Person.where("id").in([5, 2, 5, 99]).all()) == ["Bob", "Eve"])  // store order, once
            #expect(try names(Person.where(.in(\.id, [7, 1]) && \.active == true).all()) == ["Ann"])
        }
    }
}

/// A store scoped to one test.
@discardableResult
func withStore<R>(_ body: (ArrayAdapter) throws -> R) rethrows -> R {
    let store = ArrayAdapter()
    return try ModelStore.using(store) { try body(store) }
}
