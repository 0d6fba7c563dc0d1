import ArrayAdapter

final class NotificationsDoc_Todo: Model {
    @Column var name = ""
    init() {}
}

enum NotificationsDoc {
    struct Context {
        let importFixtures: () throws -> Void
    }

    static func withContext(_ body: (Context) throws -> Void) throws {
        try ModelStore.using(ArrayAdapter()) {
            try body(Context(importFixtures: { try NotificationsDoc_Todo.create(["name": "fixture"]) }))
        }
    }
}
