import ArrayAdapter
import Foundation
import ModelValidation
import Testing

/// A registered, reusable validator.
struct ISBNValidator: ColumnValidator {
    var code: String { "isbn" }
    var message: String { "is not a valid ISBN-13" }
    func accepts(_ type: ColumnType) -> Bool { type == .string }
    func isValid(_ value: ModelValue, column: ColumnDefinition) -> Bool {
        guard case .string(let s) = value else { return false }
        let digits = s.compactMap(\.wholeNumberValue)
        guard digits.count == 13, s.allSatisfy({ $0.isNumber || $0 == "-" }) else { return false }
        let sum = digits.enumerated().reduce(0) { $0 + $1.element * ($1.offset.isMultiple(of: 2) ? 1 : 3) }
        return sum.isMultiple(of: 10)
    }
}

/// Registered once per process, before any model that names it builds its validations.
let isbnRegistration: Void = Validators.register(ISBNValidator(), as: "isbn")

/// One column per rule, checked value by value with `validate(value:for:)`.
final class Profile: Model, Validatable {
    @Column var name: String = ""
    @Column var nickname: String?
    @Column var code: String?
    @Column var bio: String?
    @Column var tags: [String] = []
    @Column var settings: [String: ModelValue] = [:]
    @Column var avatar: Data?
    @Column var email: String?
    @Column var age: Int?
    @Column var score: Double?
    @Column var zip: String?
    @Column var role: String = "member"
    @Column var username: String?
    @Column var birthday: Date?
    @Column var active: Bool?
    @Column var isbn: String?
    @Column var password: String?
    @Column var level: Int = 1
    @Column var motto: String?
    var passwordConfirmation: String?
    init() {}

    static func validations(_ v: inout Validations<Profile>) {
        _ = isbnRegistration
        v.add(\.name, .presence, .length(2...10))
        v.add(\.nickname, .length(..<5), .require { (nick: String) in !nick.contains(" ") })
        v.add(\.code, .length(exactly: 3), .format("[A-Z]+"))
        v.add(\.bio, .length(...20))
        v.add(\.tags, .presence, .length(1..<3))
        v.add(\.settings, .presence)
        v.add(\.avatar, .length(...4))
        v.add(\.email, .email)
        v.add(\.age, .numericality(onlyInteger: true, greaterThanOrEqualTo: 0, lessThan: 150))
        v.add(\.score, .numericality(in: 0...10))
        v.add(\.zip, .numericality(onlyInteger: true))
        v.add(\.role, .inclusion(in: ["member", "admin"]))
        v.add(\.username, .exclusion(from: ["admin", "root"]))
        v.add(\.birthday, .presence)
        v.add(\.active, .presence)
        v.add(\.isbn, .validator("isbn"))
        v.add(\.password, .confirmation(\.passwordConfirmation))
        v.add(\.level, .require("odd", message: "must be odd") { $0 % 2 == 1 })
        v.add("motto", .length(3...).allowNil(false))
    }
}

/// A model validated on save.
final class Account: Model, Validatable {
    @Column var name: String = ""
    @Column var email: String?
    @Column var team: String?
    @Column var password: String?
    @Column var plan: String = "free"
    @Column var createdAt: Date?
    @Column var updatedAt: Date?
    var passwordConfirmation: String?

    var log: [String] = []
    var declineValidation = false
    var trimOnValidation = true

    init() {}
    convenience init(name: String, email: String? = nil, team: String? = nil, password: String? = "secret") {
        self.init()
        self.name = name
        self.email = email
        self.team = team
        self.password = password
    }

    static func validations(_ v: inout Validations<Account>) {
        v.add(\.name, .presence, .length(2...))
        v.add(\.email, .email, .uniqueness(scope: ["team"], caseSensitive: false))
        v.add(\.password, .presence.on(.create), .confirmation(\.passwordConfirmation))
        v.add(\.plan, .inclusion(in: ["free", "pro"]).on(.update))
        v.validate(on: [.update]) { account, errors in
            if account.plan == "pro", account.email == nil {
                errors.add("email", code: "required_for_pro", message: "is required on the pro plan")
            }
        }
        v.validate(on: ["launch"]) { account, errors in
            if account.team == nil { errors.add(nil, code: "no_team", message: "Accounts need a team to launch") }
        }
    }

    func beforeValidation() throws -> Bool {
        log.append("beforeValidation")
        if trimOnValidation { name = name.trimmingCharacters(in: .whitespaces) }
        return !declineValidation
    }
    func afterValidation() { log.append("afterValidation") }
    func beforeSave() throws -> Bool {
        log.append("beforeSave")
        return true
    }
}

/// A store per test.
@discardableResult
func withStore<R>(_ body: (ArrayAdapter) throws -> R) rethrows -> R {
    let store = ArrayAdapter()
    return try ModelStore.using(store) { try body(store) }
}

/// The codes `value` earns on `column` of a fresh `Profile`.
func codes(_ value: ModelValue, _ column: String, context: ValidationContext? = nil) throws -> [String] {
    try Profile().validate(value: value, for: column, in: context, store: ArrayAdapter()).codes(for: column)
}
