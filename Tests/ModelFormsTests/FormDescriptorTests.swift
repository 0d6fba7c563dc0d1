import Foundation
import Testing

@testable import ModelForms

@Suite struct FormDescriptorTests {
    @Test func layoutPlacesSectionsFieldsAndDefaults() throws {
        let form = try Member.formDescriptor()
        #expect(form.title == "Join")
        #expect(form.model == "Member")
        #expect(form.sections.map(\.title) == ["About you", "Account"])
        // Named fields first, then unnamed columns in declaration order; arrays, hidden
        // columns, the id and timestamps are left out.
        #expect(
            form.sections[0].fields.map(\.key) == [
                "name", "email", "bio", "website", "age", "rating", "due_date", "remind_at",
            ])
        #expect(form.sections[1].fields.map(\.key) == ["plan", "password", "newsletter"])
        #expect(form.field("secret") == nil && form.field("tags") == nil && form.field("id") == nil)
        #expect(form.field("created_at") == nil)
    }

    @Test func everyInputKindComesFromTypeRulesOrLayout() throws {
        let form = try Member.formDescriptor()
        let kinds = Dictionary(uniqueKeysWithValues: form.fields.map { ($0.key, $0.kind) })
        #expect(kinds["name"] == .text)
        #expect(kinds["email"] == .email)
        #expect(kinds["website"] == .url)
        #expect(kinds["bio"] == .multiline)
        #expect(kinds["age"] == .integer)
        #expect(kinds["rating"] == .decimal)
        #expect(kinds["newsletter"] == .toggle)
        #expect(kinds["due_date"] == .date)
        #expect(kinds["remind_at"] == .dateTime)
        #expect(kinds["plan"] == .picker)
        #expect(kinds["password"] == .secure)
        #expect(Set(kinds.values) == Set(FormInputKind.allCases))
    }

    @Test func labelsPlaceholdersChoicesAndHints() throws {
        let form = try Member.formDescriptor()
        #expect(form.field("due_date")?.label == "Due date")
        #expect(form.field("newsletter")?.label == "Newsletter")
        #expect(form.field("name")?.placeholder == "Ada")
        #expect(form.field("due_date")?.placeholder == "YYYY-MM-DD")
        #expect(form.field("password")?.help == "8 characters or more")
        let plan = try #require(form.field("plan"))
        #expect(plan.choices == [FormChoice(text: "free", label: "free"), .init(text: "pro", label: "pro"), .init(text: "team", label: "team")])
        #expect(plan.pickerStyle == .segmented)
        #expect(plan.text == "free")
        let name = try #require(form.field("name"))
        #expect(name.isRequired && name.minLength == 2 && name.maxLength == 40 && !name.isOptional)
        let age = try #require(form.field("age"))
        #expect(age.minimum == 13 && age.exclusiveMaximum == 130 && age.isOptional && !age.isRequired)
        let rating = try #require(form.field("rating"))
        #expect(rating.exclusiveMinimum == 0 && rating.maximum == 5)
        #expect(form.field("password")?.isRequired == true)
    }

    @Test func hintsFollowTheValidationContext() throws {
        let member = Member()
        #expect(try member.formDescriptor(context: .create).field("password")?.isRequired == true)
        #expect(try member.formDescriptor(context: .update).field("password")?.isRequired == false)
    }

    @Test func defaultFormForAModelWithoutLayoutOrRules() throws {
        let note = Note()
        note.title = "Hello"
        note.count = 3
        note.score = 2.5
        note.published = true
        note.publishedOn = Date(timeIntervalSince1970: 1_347_667_200)  // 2012-09-15
        note.token = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        let form = try note.formDescriptor()
        #expect(form.title == "Note")
        #expect(form.sections.count == 1 && form.sections[0].title == nil)
        #expect(form.fields.map(\.key) == ["title", "count", "score", "published", "published_on", "token"])
        #expect(form.fields.map(\.kind) == [.text, .integer, .decimal, .toggle, .date, .text])
        #expect(form.values == [
            "title": "Hello", "count": "3", "score": "2.5", "published": "true", "published_on": "2012-09-15",
            "token": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
        ])
        #expect(form.fields.allSatisfy { !$0.isRequired && $0.choices.isEmpty && $0.patterns.isEmpty })
    }

    @Test func descriptorsRoundTripThroughJSON() throws {
        var form = try Member.formDescriptor()
        form.setText("Ada", for: "name")
        let data = try JSONEncoder().encode(form)
        let back = try JSONDecoder().decode(FormDescriptor.self, from: data)
        #expect(back == form)
        #expect(back.field("name")?.text == "Ada")
        let setUnknown = form.setText("x", for: "nope")
        #expect(!setUnknown)
    }

    @Test func dateTimeTextKeepsTheTime() throws {
        let member = Member()
        member.remindAt = Date(timeIntervalSince1970: 1_347_705_000.5)
        #expect(try member.formDescriptor().field("remind_at")?.text == "2012-09-15T10:30:00.500Z")
        #expect(FormText.date(from: "2012-09-15") == Date(timeIntervalSince1970: 1_347_667_200))
        #expect(FormText.date(from: "15/09/2012") == nil)
    }

    @Test(arguments: BrokenLayouts.allCases)
    func malformedLayoutsAreDefinitionErrors(_ broken: BrokenLayouts) throws {
        let error = try #require(throws: FormDefinitionError.self) { try broken.describe() }
        #expect(error.model == broken.model)
        #expect((error as any SwiftModelError).modelName == broken.model)
        #expect(error.problems.contains { $0.contains(broken.expected) }, "\(error.problems)")
    }
}

/// Layouts that must be refused, each with a phrase of the expected problem.
enum BrokenLayouts: CaseIterable, Sendable {
    case pickerWithoutChoices, toggleOnText, unknownColumn, timestampPlaced, idPlaced

    var model: String {
        switch self {
        case .pickerWithoutChoices: "PickerWithoutChoices"
        case .toggleOnText: "ToggleOnText"
        case .unknownColumn: "UnknownColumn"
        case .timestampPlaced: "TimestampPlaced"
        case .idPlaced: "IDPlaced"
        }
    }
    var expected: String {
        switch self {
        case .pickerWithoutChoices: "has no choices"
        case .toggleOnText: "toggle input cannot edit \"title\""
        case .unknownColumn: "no column named \"nope\""
        case .timestampPlaced: "\"created_at\" is a timestamp column"
        case .idPlaced: "cannot be a form field"
        }
    }
    func describe() throws {
        switch self {
        case .pickerWithoutChoices: _ = try PickerWithoutChoices.formDescriptor()
        case .toggleOnText: _ = try ToggleOnText.formDescriptor()
        case .unknownColumn: _ = try UnknownColumn.formDescriptor()
        case .timestampPlaced: _ = try TimestampPlaced.formDescriptor()
        case .idPlaced: _ = try IDPlaced.formDescriptor()
        }
    }
}

final class PickerWithoutChoices: Model, FormDescribing {
    @Column var size: String = ""
    init() {}
    static func form(_ form: inout FormLayout<PickerWithoutChoices>) { form.field(\.size, .picker) }
}

final class ToggleOnText: Model, FormDescribing {
    @Column var title: String = ""
    init() {}
    static func form(_ form: inout FormLayout<ToggleOnText>) { form.field(\.title, .toggle) }
}

final class UnknownColumn: Model, FormDescribing {
    @Column var title: String = ""
    init() {}
    static func form(_ form: inout FormLayout<UnknownColumn>) { form.field("nope") }
}

final class TimestampPlaced: Model, FormDescribing {
    @Column var title: String = ""
    @Column var createdAt: Date?
    init() {}
    static func form(_ form: inout FormLayout<TimestampPlaced>) { form.field(\.createdAt) }
}

final class IDPlaced: Model, FormDescribing {
    @Column var title: String = ""
    init() {}
    static func form(_ form: inout FormLayout<IDPlaced>) { form.field("id") }
}
