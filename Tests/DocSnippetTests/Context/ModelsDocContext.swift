import ArrayAdapter
import Foundation

enum ModelsDoc {
    struct Context {
        let todo: ModelsDoc_Todo
        let fixedDate: Date
    }

    static func withContext(_ body: (Context) throws -> Void) throws {
        try ModelStore.using(ArrayAdapter()) {
            let todo = try ModelsDoc_Todo.create(["name": "a"])
            todo.name = "b"
            try body(Context(todo: todo, fixedDate: Date(timeIntervalSince1970: 1_700_000_000)))
        }
    }
}
