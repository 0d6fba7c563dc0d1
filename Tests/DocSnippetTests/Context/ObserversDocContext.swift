import ArrayAdapter
import Foundation

final class ObserversDoc_Todo: Model {
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
        let todo: ObserversDoc_Todo
        let label: ObserversDoc_Label
        let left: ObserversDoc_Box
        let right: ObserversDoc_Box
    }

    static func withContext(_ body: (Context) throws -> Void) throws {
        try ModelStore.using(ArrayAdapter()) {
            try body(Context(todo: ObserversDoc_Todo(), label: ObserversDoc_Label(), left: ObserversDoc_Box(), right: ObserversDoc_Box()))
        }
    }
}
