// Generated from Docs/Forms.md by Scripts/doc-snippets.py: do not edit; edit the document and rerun.
// swift-format-ignore-file

import ArrayAdapter
import FileAdapter
import Foundation
import SQLiteAdapter
import Testing

// Docs/Forms.md, snippet 1 (line 12)
final class FormsDoc_Member: Model, Validatable, FormDescribing {
    @Column var name: String = ""
    @Column var email: String = ""
    @Column var website: String?
    @Column var age: Int?
    @Column var plan: String = "free"
    @Column var newsletter: Bool = false
    @Column var dueDate: Date?
    @Column var password: String = ""
    @Column var createdAt: Date?
    init() {}

    static func validations(_ v: inout Validations<FormsDoc_Member>) {
        v.add(\.name, .presence, .length(2...40))
        v.add(\.email, .presence, .email)
        v.add(\.website, .url())
        v.add(\.age, .numericality(onlyInteger: true, greaterThanOrEqualTo: 13))
        v.add(\.plan, .inclusion(in: ["free", "pro", "team"]))
        v.add(\.password, .presence.on(.create), .length(8...))
    }

    static func form(_ form: inout FormLayout<FormsDoc_Member>) {
        form.title = "Join the club"
        form.section("About you")                 // titles the first section
        form.field(\.name, placeholder: "Ada Lovelace")
        form.field(\.email)
        form.section("Account")
        form.field(\.plan, pickerStyle: .segmented)
        form.field(\.password, .secure, help: "8 characters or more")
        form.field(\.newsletter, label: "Send me the newsletter")
    }
}

/// The context of Docs/Forms.md's snippets: a fresh in-memory default store.
enum FormsDoc {
    struct Context {}

    static func withContext(_ body: (Context) throws -> Void) throws {
        try ModelStore.using(ArrayAdapter()) { try body(Context()) }
    }
}

extension FormsDoc {
    /// Docs/Forms.md, snippet 1 (line 12).
    static func snippet1(_ context: Context) throws {
        _ = context
    }

    /// Docs/Forms.md, snippet 2 (line 61).
    static func snippet2(_ context: Context) throws {
        let form = try FormsDoc_Member.formDescriptor()          // a new record; record.formDescriptor() for one you have
        show(form.title)                                      // "Join the club"
        show(form.sections.map(\.title))                      // ["About you", "Account"]
        show(form.field("due_date")?.label)                   // "Due date"
        show(form.field("due_date")?.kind)                    // .date
        show(form.field("plan")?.choices.map(\.text))         // ["free", "pro", "team"]
        show(form.field("name")?.maxLength)                   // 40
        show(form)
    }

    /// Docs/Forms.md, snippet 3 (line 104).
    static func snippet3(_ context: Context) throws {
        let member = FormsDoc_Member()
        let errors = try member.apply(formValues: [
            "name": "A", "email": "ada@", "age": "twelve", "password": "correct horse",
        ])
        show(errors.messages(for: "age"))       // ["must be an integer"]
        show(member.name)                       // "" : nothing is set while a value does not cast

        let fixed = try member.apply(formValues: ["name": "A", "email": "ada@example.com", "password": "correct horse"])
        show(fixed.messages(for: "name"))       // ["is too short (minimum is 2 characters)"]
        show(member.name)                       // "A" : values that cast are set, then validated
        show(member, errors, fixed)
    }

    /// Docs/Forms.md, snippet 4 (line 144).
    static func snippet4(_ context: Context) throws {
        let schema = try FormsDoc_Member.jsonSchema()
        show(schema.property("age")?["minimum"])              // .int(13)
        let text = schema.jsonText                      // keys sorted
        show(schema, text)
    }
}

@Suite("Docs/Forms.md snippets") struct FormsDocSnippetTests {
    @Test func snippet1() throws { try privately { try FormsDoc.withContext { try FormsDoc.snippet1($0) } } }
    @Test func snippet2() throws { try privately { try FormsDoc.withContext { try FormsDoc.snippet2($0) } } }
    @Test func snippet3() throws { try privately { try FormsDoc.withContext { try FormsDoc.snippet3($0) } } }
    @Test func snippet4() throws { try privately { try FormsDoc.withContext { try FormsDoc.snippet4($0) } } }
}
