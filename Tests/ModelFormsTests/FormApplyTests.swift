import ArrayAdapter
import Foundation
import Testing

@testable import ModelForms

@Suite struct FormApplyTests {
    static let valid: [String: String] = [
        "name": "Ada", "email": "ada@example.com", "password": "12345678", "rating": "4.5",
    ]

    @Test func validTextIsCastSetAndValidated() throws {
        let member = Member()
        var values = Self.valid
        values["age"] = "42"
        values["newsletter"] = "yes"
        values["due_date"] = "2012-09-15"
        values["remind_at"] = "2012-09-15T10:30:00Z"
        values["plan"] = "pro"
        values["website"] = "https://example.com/a?b#c"
        let errors = try member.apply(formValues: values)
        #expect(errors.isEmpty, "\(errors)")
        #expect(member.name == "Ada" && member.age == 42 && member.newsletter && member.plan == "pro")
        #expect(member.rating == 4.5)
        #expect(member.dueDate == Date(timeIntervalSince1970: 1_347_667_200))
        #expect(member.remindAt == Date(timeIntervalSince1970: 1_347_705_000))
    }

    @Test func castFailuresAreFieldErrorsAndNothingIsSet() throws {
        let member = Member()
        var values = Self.valid
        values["age"] = "abc"
        values["due_date"] = "2012-02-30"
        values["newsletter"] = "maybe"
        values["rating"] = "4,5"
        values["remind_at"] = "tomorrow"
        let errors = try member.apply(formValues: values)
        #expect(errors.codes(for: "age") == ["not_an_integer"])
        #expect(errors.codes(for: "due_date") == ["not_a_date"])
        #expect(errors.codes(for: "newsletter") == ["not_a_boolean"])
        #expect(errors.codes(for: "rating") == ["not_a_number"])
        #expect(errors.messages(for: "remind_at") == ["is not a valid date"])
        #expect(errors.columns.count == 5)
        #expect(member.name == "" && member.email == "" && !member.isDirty)
    }

    @Test func keysOutsideTheFormAreRefused() throws {
        let member = Member()
        for key in ["id", "created_at", "secret", "tags", "nope"] {
            var values = Self.valid
            values[key] = "1"
            let errors = try member.apply(formValues: values)
            #expect(errors.codes(for: key) == ["not_in_form"], "\(key)")
            #expect(errors.messages(for: key) == ["is not a field of this form"])
            #expect(member.name == "" && !member.isDirty, "\(key)")
        }
    }

    @Test func validationMessagesComeBackPerFieldAfterSetting() throws {
        let member = Member()
        let errors = try member.apply(formValues: [
            "name": "A", "email": "ada@", "password": "short", "plan": "gold", "age": "7", "website": "ftp://x",
            "rating": "9",
        ])
        #expect(errors.codes(for: "name") == ["too_short"])
        #expect(errors.codes(for: "email") == ["invalid_email"])
        #expect(errors.codes(for: "password") == ["too_short"])
        #expect(errors.codes(for: "plan") == ["inclusion"])
        #expect(errors.codes(for: "age") == ["greater_than_or_equal_to"])
        #expect(errors.codes(for: "website") == ["invalid_url"])
        #expect(errors.codes(for: "rating") == ["less_than_or_equal_to"])
        #expect(member.name == "A" && member.age == 7)  // cast values are set, then validated
    }

    @Test func blankTextMeansNilForNonTextColumns() throws {
        let member = Member()
        member.age = 30
        var values = Self.valid
        values["age"] = "  "
        values["website"] = ""
        #expect(try member.apply(formValues: values).isEmpty)
        #expect(member.age == nil && member.website == nil)
        values["rating"] = ""
        let errors = try member.apply(formValues: values)
        // A cast failure (nothing set) has its own code, apart from the presence rule's
        // `blank` (the value was set, then found empty).
        #expect(errors.codes(for: "rating") == ["required"])
        #expect(errors.messages(for: "rating") == ["is required"])
        #expect(member.rating == 4.5)
        values["rating"] = "4"
        values["name"] = " "
        #expect(try member.apply(formValues: values).codes(for: "name") == ["blank", "too_short"])
        #expect(member.name == " ")
    }

    @Test func typedValuesAndModelsWithoutRules() throws {
        let note = Note()
        let errors = try note.apply(formValues: [
            "title": .string("T"), "count": .int(4), "published": .bool(true), "token": .string("nope"),
        ])
        #expect(errors.codes(for: "token") == ["not_a_uuid"])
        let nul = try note.apply(formValues: ["token": .string("E621E1F8-C36C-495A-93FC-0C247A3E6E5F\u{0}garbage")])
        #expect(nul.codes(for: "token") == ["not_a_uuid"] && note.token == nil)
        #expect(note.title == "")
        #expect(try note.apply(formValues: ["title": .string("T"), "count": .double(4)]).isEmpty)
        #expect(note.title == "T" && note.count == 4)
    }

    @Test func anUnchangedSubmissionChangesNothing() throws {
        let store = ArrayAdapter()
        let member = Member()
        #expect(try member.apply(formValues: Self.valid.merging(["due_date": "2012-09-15", "remind_at": "2012-09-15T10:30:00.25Z", "age": "40"]) { $1 }).isEmpty)
        member.website = "http://example.com"
        try member.save(to: store)
        let id = try #require(member.id)
        let loaded = try #require(try Member.find(id, in: store))
        let form = try loaded.formDescriptor()
        #expect(try loaded.apply(formValues: form.values, store: store).isEmpty)
        #expect(!loaded.isDirty)
        #expect(loaded.remindAt == Date(timeIntervalSince1970: 1_347_705_000.25))
    }

    @Test(arguments: [
        ("https://example.com", true), ("HTTP://EXAMPLE.COM/a b", false), ("Http://x.y/p?q=1#f", true),
        ("ftp://example.com", false), ("https://", false), ("example.com", false), ("https:// x", false),
        ("https://a/\n", false),
    ])
    func urlRule(_ text: String, _ valid: Bool) throws {
        let member = Member()
        var values = Self.valid
        values["website"] = text
        #expect(try member.apply(formValues: values).codes(for: "website").isEmpty == valid, "\(text)")
    }

    @Test func urlRuleRefusesBadSchemes() throws {
        #expect(throws: ValidationDefinitionError.self) { try BadURLRule.checkValidations() }
    }
}

final class BadURLRule: Model, Validatable {
    @Column var link: String = ""
    init() {}
    static func validations(_ v: inout Validations<BadURLRule>) { v.add(\.link, .url(schemes: ["1http"])) }
}

/// A form's values applied back to the record they came from change nothing, for every
/// input kind and values that test it.
@Suite struct FormRoundTripTests {
    static let afternoon = Date(timeIntervalSince1970: 1_347_733_543.511)  // 2012-09-15T18:25:43.511Z
    static let subMillisecond = Date(timeIntervalSince1970: 1_347_733_543.511_234)

    func roundTrip<M: Model>(_ record: M, in store: ArrayAdapter) throws -> M {
        try record.save(to: store)
        let id = try #require(record.id)
        let loaded = try #require(try M.find(id, in: store))
        let form = try loaded.formDescriptor()
        _ = try loaded.apply(formValues: form.values, store: store)
        #expect(!loaded.isDirty, "changed: \(loaded.changes)")
        return loaded
    }

    @Test func everyInputKindWithValuesThatTestIt() throws {
        let store = ArrayAdapter()
        let member = Member()
        member.name = "Ada Lovelace"
        member.email = "ada@example.com"
        member.website = "https://example.com/a?b=1#c"
        member.bio = String(repeating: "line of text, ünïcødé ✓\n", count: 400)
        member.age = 36
        member.rating = 0.1 + 0.2
        member.plan = "team"
        member.newsletter = true
        member.dueDate = Self.afternoon
        member.remindAt = Self.subMillisecond
        member.password = "correct horse battery"
        let loaded = try roundTrip(member, in: store)
        #expect(loaded.dueDate == Self.afternoon)
        #expect(loaded.remindAt == Self.subMillisecond)
        #expect(loaded.rating == 0.1 + 0.2)
        #expect(loaded.bio == member.bio)

        let note = Note()
        note.title = String(repeating: "x", count: 100_000)
        note.count = Int.min
        note.score = -1e-300
        note.published = true
        note.publishedOn = Self.subMillisecond
        note.token = UUID()
        let loadedNote = try roundTrip(note, in: store)
        #expect(loadedNote.publishedOn == Self.subMillisecond)
        #expect(loadedNote.score == -1e-300)
    }

    @Test func everyOptionalLeftNil() throws {
        let store = ArrayAdapter()
        let member = Member()
        member.name = "Ada"
        member.email = "ada@example.com"
        member.password = "12345678"
        member.rating = 1
        let loaded = try roundTrip(member, in: store)
        #expect(loaded.website == nil && loaded.age == nil && loaded.dueDate == nil && loaded.remindAt == nil)
        let note = try roundTrip(Note(), in: store)
        #expect(note.score == nil && note.publishedOn == nil && note.token == nil)
    }

    /// A date-time row shows microseconds: a stored date with digits below them (any
    /// `Date()`) submitted back unchanged keeps every digit and leaves the record clean; a
    /// changed time is taken as written.
    @Test func aDateTimeRowKeepsTheStoredDateWhenItsTextIsUnchanged() throws {
        let store = ArrayAdapter()
        let member = Member()
        #expect(try member.apply(formValues: FormApplyTests.valid).isEmpty)
        let precise = Date(timeIntervalSince1970: 1_347_705_000.123_456_789)
        member.remindAt = precise
        try member.save(to: store)
        let loaded = try #require(try Member.find(member.id ?? 0, in: store))
        let form = try loaded.formDescriptor()
        #expect(try loaded.apply(formValues: form.values, store: store).isEmpty)
        #expect(!loaded.isDirty, "an unchanged submission marks nothing dirty")
        #expect(loaded.remindAt == precise)
        var values = form.values
        values["remind_at"] = "2012-09-15T10:30:01.000Z"
        #expect(try loaded.apply(formValues: values, store: store).isEmpty)
        #expect(loaded.remindAt == Date(timeIntervalSince1970: 1_347_705_001))
    }

    @Test func aDateRowKeepsTheStoredTimeOnlyForTheSameDay() throws {
        let member = Member()
        member.dueDate = Self.afternoon
        var values = FormApplyTests.valid
        values["due_date"] = "2012-09-15"
        #expect(try member.apply(formValues: values).isEmpty)
        #expect(member.dueDate == Self.afternoon)
        values["due_date"] = "2012-09-16"
        #expect(try member.apply(formValues: values).isEmpty)
        #expect(member.dueDate == Date(timeIntervalSince1970: 1_347_753_600))  // midnight UTC
    }
}
