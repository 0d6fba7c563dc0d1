// Generated from README.md by Scripts/doc-snippets.py: do not edit; edit the document and rerun.
// swift-format-ignore-file

import ArrayAdapter
import FileAdapter
import Foundation
import SQLiteAdapter
import Testing

// README.md, snippet 1 (line 9)
final class ReadmeDoc_Todo: Model {
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
    @BelongsTo var todo: ReadmeDoc_Todo?                          // column "todo_id", indexed
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



        show(ModelStore.setDefault(try SQLiteAdapter(path: "todos.sqlite")))

        let todo = try ReadmeDoc_Todo(["name": "walk the dog", "due_date": "2012-09-19"])
        try show(todo.save())                                          // todo.id == 1
        todo.name = "walk the cat"
        show(todo.changes)                                             // ["name": "walk the dog" → "walk the cat"]
        try show(todo.save())
        try show(ReadmeDoc_Todo.find(1)?.name)                                   // "walk the cat"
        try show(todo.assignees.create(["name": "bob"]))

        try show(ReadmeDoc_Todo.where("name").contains("cat").order(by: "due_date").first())
        try show(ReadmeDoc_Todo.where(\.dueDate < Date()).count())
        show(todo)
    }
}

@Suite("README.md snippets") struct ReadmeDocSnippetTests {
    // snippet 1 is compiled only (marked compile-only in the document)
}
