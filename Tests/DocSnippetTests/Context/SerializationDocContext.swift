import ArrayAdapter
import Foundation

final class SerializationDoc_Todo: Model {
    @Column var name = ""
    @Column var notes = ""
    @Column var dueDate: Date?
    @Column var updatedAt: Date?
    init() {}
}

enum SerializationDoc {
    struct Context {
        let todo: SerializationDoc_Todo
        let arrayData: Data
        let data: Data
    }

    static func withContext(_ body: (Context) throws -> Void) throws {
        try ModelStore.using(ArrayAdapter()) {
            let todo = try SerializationDoc_Todo.create(["name": "walk", "notes": "leash"])
            let array = Data(#"[{"name": "a"}, {"name": "b"}]"#.utf8)
            let incoming = Data(#"[{"id": 1, "name": "walk", "notes": "changed"}, {"name": "new"}]"#.utf8)
            try body(Context(todo: todo, arrayData: array, data: incoming))
        }
    }
}
