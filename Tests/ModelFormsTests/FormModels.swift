import Foundation
import ModelForms

/// A model using every input kind, with a declared layout.
final class Member: Model, Validatable, FormDescribing {
    @Column var name: String = ""
    @Column var email: String = ""
    @Column var website: String?
    @Column(options: .text) var bio: String = ""
    @Column var age: Int?
    @Column var rating: Double = 0
    @Column var plan: String = "free"
    @Column var newsletter: Bool = false
    @Column var dueDate: Date?
    @Column var remindAt: Date?
    @Column var password: String = ""
    @Column var tags: [String] = []
    @Column var secret: String = ""
    @Column var createdAt: Date?
    @Column var updatedAt: Date?
    init() {}

    static func validations(_ v: inout Validations<Member>) {
        v.add(\.name, .presence, .length(2...40))
        v.add(\.email, .presence, .email)
        v.add(\.website, .url())
        v.add(\.age, .numericality(onlyInteger: true, greaterThanOrEqualTo: 13, lessThan: 130))
        v.add(\.rating, .numericality(greaterThan: 0, lessThanOrEqualTo: 5))
        v.add(\.plan, .inclusion(in: ["free", "pro", "team"]))
        v.add(\.password, .presence.on(.create), .length(8...))
        v.add(\.secret, .format("[a-z]*"))
    }

    static func form(_ form: inout FormLayout<Member>) {
        form.title = "Join"
        form.section("About you")
        form.field(\.name, placeholder: "Ada")
        form.field(\.email)
        form.field(\.bio)
        form.section("Account")
        form.field(\.plan, pickerStyle: .segmented)
        form.field(\.password, .secure, help: "8 characters or more")
        form.field(\.newsletter, label: "Newsletter")
        form.hide(\.secret)
    }
}

/// A model with no layout and no rules: the default form.
final class Note: Model {
    @Column var title: String = ""
    @Column var count: Int = 0
    @Column var score: Double?
    @Column var published: Bool = false
    @Column var publishedOn: Date?
    @Column var token: UUID?
    @Column var payload: Data?
    @Column var createdAt: Date?
    init() {}
}

/// Optional columns under `presence`: required, and never typed with `null`.
final class Profile: Model, Validatable {
    @Column var nickname: String?
    @Column var age: Int?
    @Column var birthday: Date?
    @Column var motto: String?
    init() {}

    static func validations(_ v: inout Validations<Profile>) {
        v.add(\.nickname, .presence)
        v.add(\.age, .presence)
        v.add(\.birthday, .presence.on(.create))
    }
}
