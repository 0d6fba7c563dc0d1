// Generated from the `///` comments of Sources/ModelValidation by Scripts/doc-snippets.py: do not edit;
// edit the comments and rerun. Compiled, not run.
// swift-format-ignore-file

@testable import ModelValidation
import ArrayAdapter
import FileAdapter
import Foundation
import PostgresAdapter
import RESTAdapter
import SQLiteAdapter
import Testing

// Sources/ModelValidation/Custom/ColumnValidator.swift, snippet 1
struct ModelValidationColumnValidator_ISBNValidator: ColumnValidator {
    var code: String { "isbn" }
    var message: String { "is not a valid ISBN" }
    func accepts(_ type: ColumnType) -> Bool { type == .string }
    func isValid(_ value: ModelValue, column: ColumnDefinition) -> Bool {
        guard case .string(let s) = value else { return false }
        return s.filter(\.isNumber).count == 13
    }
}

// Sources/ModelValidation/Declaring/Validations.swift, snippet 1
extension SourceDoc_User: Validatable {
    static func validations(_ v: inout Validations<SourceDoc_User>) {
        v.add(\.name, .presence, .length(2...50))
        v.add(\.email, .email, .uniqueness(caseSensitive: false))
        v.add("age", .numericality(onlyInteger: true, greaterThanOrEqualTo: 0))
        v.add(\.password, .presence.on(.create), .confirmation(\.passwordConfirmation))
        v.validate { user, errors in
            if user.endsAt < user.startsAt { errors.add("ends_at", code: "before_start", message: "must be after the start") }
        }
    }
}

// Sources/ModelValidation/Rules/ValidationRule.swift, snippet 4
extension SourceDoc_Event: Validatable {
    static func validations(_ v: inout Validations<SourceDoc_Event>) {
        v.add(\.endsAt, .require { (end: Date, event: SourceDoc_Event) in end > event.startsAt })
    }
}

// Sources/ModelValidation/Running/Validatable.swift, snippet 1
final class ModelValidationValidatable_User: Model, Validatable {
    @Column var name = ""
    @Column var email: String?
    init() {}

    static func validations(_ v: inout Validations<ModelValidationValidatable_User>) {
        v.add(\.name, .presence, .length(2...))
        v.add(\.email, .email, .uniqueness())
    }
}

extension SourceModelValidationDoc {
    /// Sources/ModelValidation/Custom/ColumnValidator.swift, snippet 1.
    static func ColumnValidator1(_ given: Context) throws {
        var v = given.v

        show(Validators.register(ModelValidationColumnValidator_ISBNValidator(), as: "isbn"))
        // in a model:
        show(v.add(\.isbn, .validator("isbn")))
    }

    /// Sources/ModelValidation/Declaring/Validations.swift, snippet 1.
    static func Validations1(_ given: Context) throws {
        _ = given
    }

    /// Sources/ModelValidation/Describing/ColumnRequirements.swift, snippet 1.
    static func ColumnRequirements1(_ given: Context) throws {
        let name = try SourceDoc_User.requirements().first { $0.column == "name" }
        show(name?.isRequired)     // true  (.presence)
        show(name?.maxLength)      // 50    (.length(2...50))
        show(name)
    }

    /// Sources/ModelValidation/Errors/RecordInvalid.swift, snippet 1.
    static func RecordInvalid1(_ given: Context) throws {
        let user = given.user
        do { try user.save() } catch let invalid as RecordInvalid {
            print(invalid.errors.fullMessages)   // ["name can't be blank"]
        }
    }

    /// Sources/ModelValidation/Errors/ValidationError.swift, snippet 1.
    static func ValidationError1(_ given: Context) throws {
        let error = given.error
        show(error.column)        // "name"
        show(error.code)          // "too_short"
        show(error.message)       // "is too short (minimum is 2 characters)"
        show(error.fullMessage)   // "name is too short (minimum is 2 characters)"
    }

    /// Sources/ModelValidation/Errors/ValidationError.swift, snippet 2.
    static func ValidationError2(_ given: Context) throws {
        let user = given.user
        let errors = try user.validate()
        show(errors.isEmpty)                 // false
        show(errors["name"].map(\.code))     // ["blank"]
        show(errors.messages(for: "name"))   // ["can't be blank"]
        show(errors.fullMessages)            // ["name can't be blank", "email is not a valid email address"]
        show(errors)
    }

    /// Sources/ModelValidation/Errors/ValidationMessages.swift, snippet 1.
    static func ValidationMessages1(_ given: Context) throws {
        show(ValidationMessages.setTemplate("must be filled in", for: "blank"))
        show(ValidationMessages.setTemplate(nil, for: "blank"))     // back to "can't be blank"
    }

    /// Sources/ModelValidation/Rules/ValidationContext.swift, snippet 1.
    static func ValidationContext1(_ given: Context) throws {
        var v = given.v
        let post = given.post
        show(v.add(\.password, .presence.on(.create)))
        show(v.add(\.summary, .presence.on("publish")))
        try show(post.validate(in: "publish"))
    }

    /// Sources/ModelValidation/Rules/ValidationRule.swift, snippet 1.
    static func ValidationRule1(_ given: Context) throws {
        var v = given.v
        show(v.add(\.name, .presence, .length(2...50).message("needs {count} letters or fewer")))
        show(v.add(\.age, .numericality(onlyInteger: true, greaterThan: 0).on(.create)))
        show(v.add(\.nickname, .require { !$0.contains(" ") }))
    }

    /// Sources/ModelValidation/Rules/ValidationRule.swift, snippet 2.
    static func ValidationRule2(_ given: Context) throws {
        var v = given.v
        show(v.add(\.tags, .each(.presence, .length(...20))))
        show(v.add(\.emails, .each(.email.message("entry {index} is not an address"))))
    }

    /// Sources/ModelValidation/Rules/ValidationRule.swift, snippet 3.
    static func ValidationRule3(_ given: Context) throws {
        var v = given.v
        show(v.add(\.age, .require { $0 >= 18 }))
        show(v.add(\.code, .require("odd", message: "must be odd") { $0 % 2 == 1 }))
    }

    /// Sources/ModelValidation/Rules/ValidationRule.swift, snippet 4.
    static func ValidationRule4(_ given: Context) throws {
        _ = given
    }

    /// Sources/ModelValidation/Rules/ValidationRule.swift, snippet 5.
    static func ValidationRule5(_ given: Context) throws {
        var v = given.v
        show(v.add(\.nickname, .require { (nick: String) in !nick.contains(" ") }))
    }

    /// Sources/ModelValidation/Running/Validatable.swift, snippet 1.
    static func Validatable1(_ given: Context) throws {

        let user = ModelValidationValidatable_User()
        try show(user.save())                 // false: nothing written
        show(user.errors.fullMessages)        // ["name can't be blank"]
        try show(user.save())          // throws RecordInvalid
        try show(user.save(validate: false))  // skips validation
        show(user)
    }

    /// Sources/ModelValidation/Running/Validatable.swift, snippet 2.
    static func Validatable2(_ given: Context) throws {
        let user = given.user
        try show(user.validate(value: "A", for: "name").messages(for: "name"))
        // ["is too short (minimum is 2 characters)"]
    }

    /// Sources/ModelValidation/Running/Validatable.swift, snippet 3.
    static func Validatable3(_ given: Context) throws {
        let user = given.user
        try show(user.validate("A", for: \.name).isEmpty)     // false
    }

    /// Sources/ModelValidation/Running/ValidationState.swift, snippet 1.
    static func ValidationState1(_ given: Context) throws {
        let user = SourceDoc_User()
        show(user.validationState)          // .empty
        user.name = "A"
        show(user.validationState)          // .dirty
        try show(user.validate())
        show(user.validationState)          // .invalid(errors) – "name is too short …"
        user.name = "Ada"
        show(user.validationState)          // .dirty
        try show(user.validate())
        show(user.validationState)          // .valid
        show(user)
    }
}
