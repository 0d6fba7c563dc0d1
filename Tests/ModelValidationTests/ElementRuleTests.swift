import ArrayAdapter
import Foundation
import ModelValidation
import Testing

/// Rules on the elements of an array column, with the element's index in the error.
@Suite struct ElementRuleTests {
    final class Mailing: Model, Validatable {
        @Column var tags: [String] = []
        @Column var emails: [String] = []
        @Column var scores: [Int] = []
        init() {}

        static func validations(_ v: inout Validations<Mailing>) {
            v.add(\.tags, .each(.presence, .length(...5)))
            v.add(\.emails, .each(.email.message("entry {index} ({value}) is not an address")))
            v.add(\.scores, .length(...3), .each(.numericality(in: 0...10)))
        }
    }

    @Test func eachElementIsCheckedAndTheErrorNamesItsIndex() throws {
        let mailing = Mailing()
        mailing.tags = ["ok", "", "much too long"]
        mailing.emails = ["ada@example.com", "nope"]
        mailing.scores = [3, 11]
        let errors = try mailing.validate()
        #expect(errors.map(\.code) == ["blank", "too_long", "invalid_email", "not_in_range"])
        #expect(errors.map(\.index) == [1, 2, 1, 1])
        #expect(errors.map(\.value) == ["", "much too long", "nope", 11])
        #expect(errors.fullMessages.first == "tags[1] can't be blank")
        #expect(errors.messages(for: "emails") == ["entry 1 (nope) is not an address"])
        #expect(errors["scores"].count == 1, "the array-level length rule passes")
    }

    @Test func validElementsAndEmptyArraysPass() throws {
        let mailing = Mailing()
        #expect(try mailing.validate().isEmpty)
        mailing.tags = ["a", "bcde"]
        mailing.emails = ["x@example.com"]
        mailing.scores = [0, 10]
        #expect(try mailing.validate().isEmpty)
    }

    @Test func anInvalidElementRefusesTheSave() throws {
        try withStore { (_: ArrayAdapter) throws in
            let mailing = Mailing()
            mailing.tags = ["fine", " "]
            let error = #expect(throws: RecordInvalid.self) { try mailing.save() }
            #expect(error?.errors.first?.index == 1)
            #expect(try Mailing.count() == 0)
        }
    }

    final class OnAString: Model, Validatable {
        @Column var name: String = ""
        init() {}
        static func validations(_ v: inout Validations<OnAString>) { v.add(\.name, .each(.presence)) }
    }

    final class UniqueElements: Model, Validatable {
        @Column var tags: [String] = []
        init() {}
        static func validations(_ v: inout Validations<UniqueElements>) { v.add(\.tags, .each(.uniqueness())) }
    }

    final class UntypedArray: Model, Validatable {
        @Column var anything: [ModelValue] = []
        init() {}
        static func validations(_ v: inout Validations<UntypedArray>) { v.add(\.anything, .each(.presence)) }
    }

    @Test func malformedElementRulesAreDefinitionErrors() throws {
        let onString = #expect(throws: ValidationDefinitionError.self) { _ = try OnAString().validate() }
        #expect(onString?.reason.contains("array") == true)
        let unique = #expect(throws: ValidationDefinitionError.self) { _ = try UniqueElements().validate() }
        #expect(unique?.reason.contains("each element") == true)
        let untyped = #expect(throws: ValidationDefinitionError.self) { _ = try UntypedArray().validate() }
        #expect(untyped?.reason.contains("typed array") == true)
    }
}
