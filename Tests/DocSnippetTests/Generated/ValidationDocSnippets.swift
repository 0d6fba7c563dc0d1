// Generated from Docs/Validation.md by Scripts/doc-snippets.py: do not edit; edit the document and rerun.
// swift-format-ignore-file

import ArrayAdapter
import FileAdapter
import Foundation
import SQLiteAdapter
import Testing

// Docs/Validation.md, snippet 1 (line 12)
final class ValidationDoc_User: Model, Validatable {
    @Column var name = ""
    @Column var email: String?
    @Column var team: String?
    @Column var age: Int?
    @Column var role = "member"
    @Column var password: String?
    var passwordConfirmation: String?     // not a column: never stored
    init() {}

    static func validations(_ v: inout Validations<ValidationDoc_User>) {
        v.add(\.name, .presence, .length(2...50))
        v.add(\.email, .email, .uniqueness(scope: ["team"], caseSensitive: false))
        v.add(\.age, .numericality(onlyInteger: true, greaterThanOrEqualTo: 0, lessThan: 150))
        v.add(\.role, .inclusion(in: ["member", "admin"]))
        v.add(\.password, .presence.on(.create), .confirmation(\.passwordConfirmation))
        v.add("name", .exclusion(from: ["root", "admin"]))          // by stored column name
        v.validate(on: [.update]) { user, errors in                   // record-level check
            if user.role == "admin", user.email == nil {
                errors.add("email", code: "required_for_admin", message: "is required for admins")
            }
        }
    }
}

// Docs/Validation.md, snippet 2 (line 70)
final class ValidationDoc_Post: Model, Validatable {
    @Column var title = ""
    @Column var summary: String?
    @Column var slug: String?
    init() {}

    static func validations(_ v: inout Validations<ValidationDoc_Post>) {
        v.add(\.title, .length(...80).message("is over {count} {unit}"))  // {count} {unit} {low} {high} {value}
        v.add(\.title, .presence.on(.create))                 // only when inserting
        v.add(\.summary, .presence.on("publish"))             // only in a custom context
        v.add(\.slug, .format("[a-z-]+").allowNil(false))
    }
}

// Docs/Validation.md, snippet 3 (line 107)
final class ValidationDoc_Mailing: Model, Validatable {
    @Column var tags: [String] = []
    @Column var emails: [String] = []
    init() {}

    static func validations(_ v: inout Validations<ValidationDoc_Mailing>) {
        v.add(\.tags, .each(.presence, .length(...20)))
        v.add(\.emails, .each(.email.message("entry {index} is not an address")))
    }
}

// Docs/Validation.md, snippet 7 (line 221)
struct ValidationDoc_ISBNValidator: ColumnValidator {
    var code: String { "isbn" }
    var message: String { "is not a valid ISBN-13" }
    func accepts(_ type: ColumnType) -> Bool { type == .string }     // checked at build time
    func isValid(_ value: ModelValue, column: ColumnDefinition) -> Bool {
        guard case .string(let text) = value else { return false }
        let digits = text.compactMap(\.wholeNumberValue)
        let sum = digits.enumerated().reduce(0) { $0 + $1.element * ($1.offset.isMultiple(of: 2) ? 1 : 3) }
        return digits.count == 13 && sum.isMultiple(of: 10)
    }
}

// Docs/Validation.md, snippet 7 (line 221)
final class ValidationDoc_Book: Model, Validatable {
    @Column var isbn: String?
    init() {}
    static func validations(_ v: inout Validations<ValidationDoc_Book>) {
        v.add(\.isbn, .validator("isbn"))            // by name, in any model
        v.add(\.isbn, .validator(ValidationDoc_ISBNValidator()))   // or by value
    }
}

extension ValidationDoc {
    /// Docs/Validation.md, snippet 1 (line 12).
    static func snippet1(_ context: Context) throws {
        _ = context

    }

    /// Docs/Validation.md, snippet 2 (line 70).
    static func snippet2(_ context: Context) throws {
        _ = context
    }

    /// Docs/Validation.md, snippet 3 (line 107).
    static func snippet3(_ context: Context) throws {

        let mailing = ValidationDoc_Mailing()
        mailing.tags = ["home", ""]
        let errors = try mailing.validate()
        show(errors.first?.index)          // 1
        show(errors.fullMessages)          // ["tags[1] can't be blank"]
        show(mailing, errors)
    }

    /// Docs/Validation.md, snippet 4 (line 131).
    static func snippet4(_ context: Context) throws {
        let user = ValidationDoc_User()
        try show(user.isValid)                          // false
        let errors = try user.validate()          // ValidationErrors
        show(errors["name"].map(\.code))                // ["blank", "too_short"]
        show(errors.messages(for: "name"))              // ["can't be blank", "is too short (minimum is 2 characters)"]
        show(errors.fullMessages)                       // ["name can't be blank", "name is too short (minimum is 2 characters)"]
        show(errors.recordErrors)                       // errors added without a column
        show(user.errors)                               // the last run's errors

        try show(user.validate(value: "A", for: "name"))   // check a candidate without assigning it
        try show(user.validate("A", for: \.name))          // same, typed
        show(user, errors)
    }

    /// Docs/Validation.md, snippet 5 (line 161).
    static func snippet5(_ context: Context) throws {
        let user = context.user
        do {
            try user.save()                        // or ValidationDoc_User.create([...])
        } catch let invalid as RecordInvalid {
            print(invalid.errors)                  // the same ValidationErrors, also on user.errors
        }

        if try !user.saveIfValid() { print(user.errors.fullMessages) }

        try show(user.save(validate: false))             // skips the rules and the validation hooks
    }

    /// Docs/Validation.md, snippet 6 (line 209).
    static func snippet6(_ context: Context) throws {
        show(ValidationMessages.setTemplate("must be filled in", for: "blank"))
        show(ValidationMessages.setTemplate(nil, for: "blank"))     // restore
        show(ValidationMessages.defaults)                            // every built-in code and template
    }

    /// Docs/Validation.md, snippet 7 (line 221).
    static func snippet7(_ context: Context) throws {

        show(Validators.register(ValidationDoc_ISBNValidator(), as: "isbn"))   // once, at startup

    }
}

@Suite("Docs/Validation.md snippets") struct ValidationDocSnippetTests {
    @Test func snippet1() throws { try privately { try ValidationDoc.withContext { try ValidationDoc.snippet1($0) } } }
    @Test func snippet2() throws { try privately { try ValidationDoc.withContext { try ValidationDoc.snippet2($0) } } }
    @Test func snippet3() throws { try privately { try ValidationDoc.withContext { try ValidationDoc.snippet3($0) } } }
    @Test func snippet4() throws { try privately { try ValidationDoc.withContext { try ValidationDoc.snippet4($0) } } }
    @Test func snippet5() throws { try privately { try ValidationDoc.withContext { try ValidationDoc.snippet5($0) } } }
    // snippet 6 is compiled only (marked compile-only in the document)
    // snippet 7 is compiled only (marked compile-only in the document)
}
