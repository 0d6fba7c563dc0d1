// QuickStart: declare a model, validate, save, change, query and observe records.
// Run with `swift run QuickStart`.
import ArrayAdapter
import Foundation

final class Task: Model, Validatable {
    @Column var name: String = ""
    @Column var longName: String?
    @Column(default: "2012-09-15") var dueDate: Date?
    @Column var priority: Int = 0
    @Column var tags: [String] = []
    @Column var createdAt: Date?
    @Column var updatedAt: Date?
    init() {}

    static func validations(_ v: inout Validations<Task>) {
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

        print("Schema:", Task.schema)

        let task = try Task(["name": "  walk the dog ", "priority": "2", "tags": ["outdoor"]])
        try task.save()
        print("Saved", task.name, "with id", task.id.map(String.init) ?? "nil", "due", task.dueDate.map { "\($0)" } ?? "-")

        let watch = try task.observe(\.priority) { old, new in print("priority \(old) → \(new)") }
        task.priority = 5
        print("Dirty:", task.isDirty, "changes:", task.changes)
        try task.save()
        watch.cancel()

        try store.transaction {
            try Task.create(["name": "buy milk"])
            try Task.create(["name": "call mum", "due_date": "2012-09-19T09:30:00Z"])
        }
        print("Count:", try Task.count())
        for task in try Task.all() { print(" -", task.id ?? 0, task.name, task.dueDate.map { "\($0)" } ?? "-") }

        let early = try Task.where(\.dueDate < ModelClock.now()).order(by: \.dueDate, .descending).all()
        print("Due before now, latest first:", early.map(\.name))
        print("Names containing \"m\":", try Task.where("name").contains("m").pluck(\.name))
        print("Tasks per due date:", try Task.query().group(by: "due_date").count().map { "\($0.key): \($0.value)" })

        let invalid = Task()
        invalid.priority = 9
        if try !invalid.saveIfValid() { print("Not saved:", invalid.errors.fullMessages.joined(separator: "; ")) }

        do {
            try task.set("priority", to: "high")
        } catch {
            print("Cast error:", error)
        }
        print("Deleted", try Task.deleteAll(), "tasks")
    }
}
