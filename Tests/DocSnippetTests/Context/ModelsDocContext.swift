import ArrayAdapter
import Foundation

enum ModelsDoc {
    struct Context {
        let task: ModelsDoc_Task
        let fixedDate: Date
    }

    static func withContext(_ body: (Context) throws -> Void) throws {
        try ModelStore.using(ArrayAdapter()) {
            let task = try ModelsDoc_Task.create(["name": "a"])
            task.name = "b"
            try body(Context(task: task, fixedDate: Date(timeIntervalSince1970: 1_700_000_000)))
        }
    }
}
