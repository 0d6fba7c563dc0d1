import ArrayAdapter
import Foundation

final class ObserversDoc_Task: Model {
    @Column var name = ""
    @Column var dueDate: Date?
    init() {}
}

final class ObserversDoc_Label: Model {
    @Column var title = ""
    init() {}
}

final class ObserversDoc_Box: Model {
    @Column var size = 0
    init() {}
}

enum ObserversDoc {
    struct Context {
        let task: ObserversDoc_Task
        let label: ObserversDoc_Label
        let left: ObserversDoc_Box
        let right: ObserversDoc_Box
    }

    static func withContext(_ body: (Context) throws -> Void) throws {
        try ModelStore.using(ArrayAdapter()) {
            try body(Context(task: ObserversDoc_Task(), label: ObserversDoc_Label(), left: ObserversDoc_Box(), right: ObserversDoc_Box()))
        }
    }
}
