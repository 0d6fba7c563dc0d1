import ArrayAdapter
import Foundation

// The models the `///` snippets of Sources/ name (`Todo` in a doc comment is
// `SourceDoc_Todo` here, unless the comment's file declares its own). Scripts/doc-snippets.py
// renames them; the snippets are compiled, not run.

final class SourceDoc_Todo: Model {
    static var tableName: String { "todos" }
    @Column var name = ""
    @Column var notes = ""
    @Column var dueDate: Date?
    @Column var due: Date?
    @Column var done = false
    @Column var priority = 0
    @Column var tags: [String] = []
    @Column var createdAt: Date?
    @Column var updatedAt: Date?
    @HasMany var assignees: Children<SourceDoc_Assignee>
    init() {}
}

final class SourceDoc_Assignee: Model {
    @Column var name = ""
    @BelongsTo var todo: SourceDoc_Todo?
    @HasMany var comments: Children<SourceDoc_Comment>
    init() {}
}

final class SourceDoc_Comment: Model {
    @Column var text = ""
    @BelongsTo var assignee: SourceDoc_Assignee?
    init() {}
}

final class SourceDoc_Project: Model {
    @Column var name = ""
    init() {}
}

final class SourceDoc_Draft: Model {
    @Column var text = ""
    init() {}
}

final class SourceDoc_Label: Model {
    @Column var title = ""
    init() {}
}

final class SourceDoc_Person: Model {
    static var tableName: String { "people" }
    @Column var name = ""
    @Column var age = 0
    @Column var city: String?
    @Column var email: String?
    @Column var score = 0.0
    @Column var bonus: Double?
    @Column var joined: Date?
    init() {}
}

final class SourceDoc_Team: Model {
    @Column var name = ""
    @HasMany var players: Children<SourceDoc_Player>
    init() {}
}

final class SourceDoc_Player: Model {
    @Column var name = ""
    @Column var age = 0
    @BelongsTo var team: SourceDoc_Team?
    init() {}
}

final class SourceDoc_Enrollment: Model {
    @BelongsTo var course: SourceDoc_Course?
    init() {}
}

final class SourceDoc_Course: Model {
    @Column var title = ""
    init() {}
}

final class SourceDoc_User: Model {
    static var tableName: String { "users" }
    @Column var name = ""
    @Column var email: String?
    @Column var age = 0
    @Column var password = ""
    @Column var passwordConfirmation: String?
    @Column var summary: String?
    @Column var nickname = ""
    @Column var tags: [String] = []
    @Column var emails: [String] = []
    @Column var code = 1
    @Column var isbn = ""
    @Column var startsAt = Date(timeIntervalSince1970: 0)
    @Column var endsAt = Date(timeIntervalSince1970: 0)
    @HasOne var profile: SourceDoc_Profile?
    init() {}
}

final class SourceDoc_Profile: Model {
    @Column var bio = ""
    @BelongsTo var user: SourceDoc_User?
    init() {}
}

final class SourceDoc_Post: Model, Validatable {
    @Column var title = ""
    @Column var summary: String?
    init() {}
    static func validations(_ v: inout Validations<SourceDoc_Post>) { v.add(\.title, .presence) }
}

final class SourceDoc_Event: Model {
    @Column var startsAt = Date(timeIntervalSince1970: 0)
    @Column var endsAt = Date(timeIntervalSince1970: 0)
    init() {}
}

final class SourceDoc_Chore: Model {
    @Column var name = ""
    @Column var due: Date?
    @Column var done = false
    @Column var priority = 0
    init() {}
}

final class SourceDoc_Account: Model {
    @Column var balance = 0.0
    init() {}
}

final class SourceDoc_Order: Model {
    @Column var key = ""
    init() {}
}

final class SourceDoc_Company: Model {
    @Column var name = ""
    @HasMany var employees: Children<SourceDoc_Employee>
    init() {}
}

final class SourceDoc_Employee: Model {
    @Column var name = ""
    @Column var age = 0
    @BelongsTo var company: SourceDoc_Company?
    init() {}
}

final class SourceDoc_Publisher: Model {
    @Column var name = ""
    init() {}
}

final class SourceDoc_Author: Model {
    @Column var name = ""
    @BelongsTo var publisher: SourceDoc_Publisher?
    init() {}
}

// Functions the snippets call as placeholders for an app's own code.
func SourceDoc_importFixtures() throws {}
func SourceDoc_importEverything() throws {}
func SourceDoc_expensiveDump() -> String { "" }
func SourceDoc_render(_ todos: [SourceDoc_Todo]) {}
func SourceDoc_showTaken() {}
func SourceDoc_updateBadge(_ count: Int) {}

/// A log handler of the app's (to swift-log, OSLog, a file…).
struct SourceDoc_MyBridge: LogHandler {
    func log(_ record: LogRecord) {}
}

/// Where the app gets fresh tokens.
struct SourceDoc_TokenSource: Sendable {
    func freshToken() throws -> String { "token" }
}
