// Generated from README.md by Scripts/doc-snippets.py: do not edit; edit the document and rerun.
// swift-format-ignore-file

import ArrayAdapter
import FileAdapter
import Foundation
import SQLiteAdapter
import Testing

// README.md, snippet 1 (line 9)
final class ReadmeDoc_Task: Model {
    @Column var name: String = ""
    @Column var longName: String?                       // column "long_name"
    @Column(default: "2012-09-15") var dueDate: Date?   // cast when the schema is built
    @Column var tags: [String] = []
    @Column var createdAt: Date?                        // stamped automatically
    @Column var updatedAt: Date?
    @HasMany(dependent: .destroy) var assignees: Children<ReadmeDoc_Assignee>
    init() {}
}

// README.md, snippet 1 (line 9)
final class ReadmeDoc_Assignee: Model {
    @Column var name: String = ""
    @BelongsTo var task: ReadmeDoc_Task?                          // column "task_id", indexed
    init() {}
}

/// The context of README.md's snippets: a fresh in-memory default store.
enum ReadmeDoc {
    struct Context {}

    static func withContext(_ body: (Context) throws -> Void) throws {
        try ModelStore.using(ArrayAdapter()) { try body(Context()) }
    }
}

extension ReadmeDoc {
    /// README.md, snippet 1 (line 9).
    static func snippet1(_ context: Context) throws {



        show(ModelStore.setDefault(try SQLiteAdapter(path: "tasks.sqlite")))

        let task = try ReadmeDoc_Task(["name": "walk the dog", "due_date": "2012-09-19"])
        try show(task.save())                                          // task.id == 1
        task.name = "walk the cat"
        show(task.changes)                                             // ["name": "walk the dog" → "walk the cat"]
        try show(task.save())
        try show(ReadmeDoc_Task.find(1)?.name)                                   // "walk the cat"
        try show(task.assignees.create(["name": "bob"]))

        try show(ReadmeDoc_Task.where("name").contains("cat").order(by: "due_date").first())
        try show(ReadmeDoc_Task.where(\.dueDate < Date()).count())
        show(task)
    }
}

@Suite("README.md snippets") struct ReadmeDocSnippetTests {
    // snippet 1 is compiled only (marked compile-only in the document)
}
