// QuickStart: declare a model, validate, save, change, query and observe records.
// Run with `swift run QuickStart`.
import ArrayAdapter
import Foundation

final class Todo: Model, Validatable {
    @Column var name: String = ""
    @Column var longName: String?
    @Column(default: "2012-09-15") var dueDate: Date?
    @Column var priority: Int = 0
    @Column var tags: [String] = []
    @Column var createdAt: Date?
    @Column var updatedAt: Date?
    init() {}

    static func validations(_ v: inout Validations<Todo>) {
        v.add(\.name, .presence, .length(...80))
        v.add(\.priority, .numericality(in: 0...5))
    }

    func beforeValidation() throws -> Bool {
        name = name.trimmingCharacters(in: .whitespaces)
        return true
    }
}

@main
struct QuickStart {
    static func main() throws {
        let store = ArrayAdapter()
        ModelStore.setDefault(store)

        print("Schema:", Todo.schema)

        let todo = try Todo(["name": "  walk the dog ", "priority": "2", "tags": ["outdoor"]])
        try todo.save()
        print("Saved", todo.name, "with id", todo.id.map(String.init) ?? "nil", "due", todo.dueDate.map { "\($0)" } ?? "-")

        let watch = try todo.observe(\.priority) { old, new in print("priority \(old) → \(new)") }
        todo.priority = 5
        print("Dirty:", todo.isDirty, "changes:", todo.changes)
        try todo.save()
        watch.cancel()

        try store.transaction {
            try Todo.create(["name": "buy milk"])
            try Todo.create(["name": "call mum", "due_date": "2012-09-19T09:30:00Z"])
        }
        print("Count:", try Todo.count())
        for todo in try Todo.all() { print(" -", todo.id ?? 0, todo.name, todo.dueDate.map { "\($0)" } ?? "-") }

        let early = try Todo.where(\.dueDate < ModelClock.now()).order(by: \.dueDate, .descending).all()
        print("Due before now, latest first:", early.map(\.name))
        print("Names containing \"m\":", try Todo.where("name").contains("m").pluck(\.name))
        print("Todos per due date:", try Todo.query().group(by: "due_date").count().map { "\($0.key): \($0.value)" })

        let invalid = Todo()
        invalid.priority = 9
        if try !invalid.saveIfValid() { print("Not saved:", invalid.errors.fullMessages.joined(separator: "; ")) }

        do {
            try todo.set("priority", to: "high")
        } catch {
            print("Cast error:", error)
        }
        print("Deleted", try Todo.deleteAll(), "todos")
    }
}
