// TaskManager: a small task list kept in `tasks.sqlite` in the working directory.
// Run with `swift run TaskManager`; run it again to see the file reopened.
//
//   swift run TaskManager              # the demo: add, query, update, print
//   swift run TaskManager add "title"  # add a task
//   swift run TaskManager done 3       # mark task 3 done
//   swift run TaskManager list         # print the tasks
import Foundation
import SQLiteAdapter

final class Project: Model {
    @Column var name: String = ""
    @HasMany(dependent: .destroy) var tasks: Children<TaskItem>
    init() {}
}

final class TaskItem: Model, Validatable {
    static var tableName: String { "task" }
    @Column var title: String = ""
    @Column var done: Bool = false
    @Column var priority: Int = 1
    @Column var due: Date?
    @Column var createdAt: Date?
    @Column var updatedAt: Date?
    @BelongsTo var project: Project?
    @HasMany(dependent: .delete) var assignees: Children<Assignee>
    init() {}

    static func validations(_ v: inout Validations<TaskItem>) {
        v.add(\.title, .presence, .length(...120))
        v.add(\.priority, .numericality(in: 1...5))
    }
}

final class Assignee: Model {
    @Column var name: String = ""
    @BelongsTo var task: TaskItem?
    init() {}
}

@main
struct TaskManager {
    static func main() throws {
        let path = FileManager.default.currentDirectoryPath + "/tasks.sqlite"
        let store = try SQLiteAdapter(path: path)
        ModelStore.setDefault(store)
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch arguments.first {
        case "add":
            let task = try TaskItem(["title": arguments.dropFirst().joined(separator: " ")])
            if try task.saveIfValid() { print("added #\(task.id ?? 0) \(task.title)") } else { print("not added:", task.errors.fullMessages) }
        case "done":
            guard let id = arguments.dropFirst().first.flatMap(Int64.init), let task = try TaskItem.find(id) else {
                print("usage: TaskManager done <id>")
                return
            }
            task.done = true
            try task.save()
            print("done: #\(id) \(task.title)")
        case "list": try list()
        default: try demo(path, store)
        }
    }

    static func demo(_ path: String, _ store: SQLiteAdapter) throws {
        let previous = try TaskItem.count()
        print("Opened \(path) (\(previous) task(s) from earlier runs); SQLite \(SQLiteLibrary.version)")
        _ = try Project.destroyAll()  // start the demo from a clean slate

        try store.transaction {
            let home = try Project.create(["name": "Home"])
            let work = try Project.create(["name": "Work"])
            let due = Date(timeIntervalSinceNow: 86_400)
            let milk = try home.tasks.create(["title": "buy milk", "priority": 2, "due": due])
            try milk.assignees.create(["name": "ann"])
            let report = try work.tasks.create(["title": "write the report", "priority": 5])
            try report.assignees.create(["name": "bob"])
            try report.assignees.create(["name": "carol"])
            try work.tasks.create(["title": "book the review", "priority": 3])
        }
        let invalid = try TaskItem(["title": "", "priority": 9])
        do {
            try invalid.save()
        } catch let error as RecordInvalid {
            print("Rejected an invalid task:", error.errors.fullMessages.joined(separator: "; "))
        }

        let urgent = try TaskItem.where(\.priority >= 3 && \.done == false).order(by: \.priority, .descending).all()
        print("Urgent:", urgent.map(\.title))
        let work = try Project.where(\.name == "Work").first()
        print("Work has \(try work?.tasks.count() ?? 0) tasks; report assignees:",
            try TaskItem.where(\.title == "write the report").first()?.assignees.all().map(\.name) ?? [])

        let updated = try TaskItem.where("title").contains("milk").updateAll(["done": true])
        print("Marked \(updated) task(s) done")
        print("Tasks per project:", try TaskItem.query().group(by: "project_id").count().map { "\($0.key): \($0.value)" })

        try list()
        print("Inspect it with: sqlite3 tasks.sqlite 'SELECT id, title, done, priority FROM task'")
    }

    static func list() throws {
        let tasks = try TaskItem.query().including(\.project).order(by: \.done).order(by: \.priority, .descending).all()
        for task in tasks {
            let mark = task.done ? "x" : " "
            print(" [\(mark)] #\(task.id ?? 0) p\(task.priority) \(task.title) — \(task.project?.name ?? "no project")")
        }
    }
}
