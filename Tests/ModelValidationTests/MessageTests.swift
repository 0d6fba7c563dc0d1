import ArrayAdapter
import Foundation
import Testing

@Suite(.serialized) struct MessageTests {
    func messages(_ value: ModelValue, _ column: String) throws -> [String] {
        try Profile().validate(value: value, for: column, store: ArrayAdapter()).map(\.fullMessage)
    }

    @Test func defaultMessagesReadAsSentences() throws {
        #expect(try messages("", "name") == ["name can't be blank", "name is too short (minimum is 2 characters)"])
        #expect(try messages("Abcdefghijk", "name") == ["name is too long (maximum is 10 characters)"])
        #expect(try messages("AB", "code") == ["code is the wrong length (should be 3 characters)"])
        #expect(try messages(["a", "b", "c"], "tags") == ["tags is too long (maximum is 2 items)"])
        #expect(try messages(.data(Data(count: 5)), "avatar") == ["avatar is too long (maximum is 4 bytes)"])
        #expect(try messages(200, "age") == ["age must be less than 150"])
        #expect(try messages(11, "score") == ["score must be between 0 and 10"])
        #expect(try messages("x", "email") == ["email is not a valid email address"])
        #expect(try messages("owner", "role") == ["role is not included in the list"])
        #expect(try messages("root", "username") == ["username is reserved"])
        #expect(try messages(2, "level") == ["level must be odd"])
        #expect(try messages("1", "isbn") == ["isbn is not a valid ISBN-13"])
    }

    @Test func singularUnits() throws {
        final class Initial: Model, Validatable {
            @Column var letter: String = ""
            init() {}
            static func validations(_ v: inout Validations<Initial>) { v.add(\.letter, .length(exactly: 1)) }
        }
        #expect(try Initial().validate(value: "ab", for: "letter").map(\.message) == ["is the wrong length (should be 1 character)"])
    }

    @Test func templatesCanBeOverriddenPerRuleAndPerProcess() throws {
        final class Note: Model, Validatable {
            @Column var title: String = ""
            @Column var body: String = ""
            init() {}
            static func validations(_ v: inout Validations<Note>) {
                v.add(\.title, .presence.message("needs a title"), .length(...5).message("is over {count} {unit}: {value}"))
                v.add(\.body, .exclusion(from: ["tbd"]))
            }
        }
        let note = Note()
        #expect(try note.validate(value: "", for: "title").map(\.message) == ["needs a title"])
        let over = try note.validate(value: "toolong", for: "title").map(\.message)
        #expect(over == ["is over 5 characters: toolong"])
        // An override, in private templates so that suites running in parallel never see it.
        try ValidationMessages.withPrivateTemplates { () throws in
            ValidationMessages.setTemplate("cannot be {value}", for: "exclusion")
            #expect(try note.validate(value: "tbd", for: "body").map(\.message) == ["cannot be tbd"])
            #expect(try note.validate(value: "", for: "title").map(\.message) == ["needs a title"])
            ValidationMessages.setTemplate(nil, for: "exclusion")
            #expect(try note.validate(value: "tbd", for: "body").map(\.message) == ["is reserved"])
            ValidationMessages.setTemplate("kept inside", for: "exclusion")
        }
        #expect(try note.validate(value: "tbd", for: "body").map(\.message) == ["is reserved"], "the override stayed inside")
    }

    @Test func errorsCollectionAnswersPerColumn() throws {
        try withStore { _ in
            let profile = Profile()
            profile.name = "A"
            profile.role = "owner"
            let errors = try profile.validate()
            #expect(errors["name"].map(\.code) == ["too_short"])
            #expect(errors.messages(for: "role") == ["is not included in the list"])
            #expect(errors.columns == ["name", "tags", "settings", "role", "birthday", "active", "motto"])
            #expect(errors.fullMessages.first == "name is too short (minimum is 2 characters)")
            #expect(errors["email"].isEmpty)
            #expect(profile.errors == errors)
            #expect(RecordInvalid(model: "Profile", id: .null, errors: errors).description.hasPrefix("new Profile is invalid: name is too short"))
        }
    }
}
