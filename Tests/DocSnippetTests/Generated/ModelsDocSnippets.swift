// Generated from Docs/Models.md by Scripts/doc-snippets.py: do not edit; edit the document and rerun.
// swift-format-ignore-file

import ArrayAdapter
import FileAdapter
import Foundation
import SQLiteAdapter
import Testing

// Docs/Models.md, snippet 1 (line 3)
final class ModelsDoc_Todo: Model {
    @Column var name: String = ""                        // "name", string
    @Column var longName: String?                        // "long_name", string?
    @Column(default: "2012-09-15") var dueDate: Date?    // declared default, cast at declaration
    @Column("notes_text") var notes: String = ""         // explicit column name
    @Column(options: [.indexed]) var priority: Int = 0
    @Column var tags: [String] = []                      // array<string>
    @Column var settings: [String: ModelValue] = [:]     // dictionary
    @Column(options: .text) var body: String = ""         // text (long string)
    @Column var createdAt: Date?                         // stamped on first save
    @Column var updatedAt: Date?                         // stamped on every save
    init() {}
}

// Docs/Models.md, snippet 3 (line 60)
final class ModelsDoc_Device: Model { typealias IDValue = UUID;   init() {} }   // generated on first save

// Docs/Models.md, snippet 3 (line 60)
final class ModelsDoc_Country: Model { typealias IDValue = String; init() {} }  // set by the caller

// Docs/Models.md, snippet 5 (line 104)
final class ModelsDoc_Order: Model {
    @Column(options: .fieldTimestamps) var status = "new"
    init() {}
}

extension ModelsDoc {
    /// Docs/Models.md, snippet 1 (line 3).
    static func snippet1(_ context: Context) throws {
        _ = context

    }

    /// Docs/Models.md, snippet 2 (line 33).
    static func snippet2(_ context: Context) throws {
        show(ModelsDoc_Todo.schema.tableName)                     // "todos"
        show(ModelsDoc_Todo.columns.map(\.name))                  // ["id", "name", "long_name", …]
        show(ModelsDoc_Todo.column(named: "due_date")?.type)      // .date
        show(ModelsDoc_Todo.column(named: "due_date")?.isOptional) // true
    }

    /// Docs/Models.md, snippet 3 (line 60).
    static func snippet3(_ context: Context) throws {
        _ = context
    }

    /// Docs/Models.md, snippet 4 (line 94).
    static func snippet4(_ context: Context) throws {
        let todo = context.todo
        let fixedDate = context.fixedDate
        try show(ModelClock.using({ fixedDate }) { try todo.save() })   // task-local
        show(ModelClock.set { fixedDate })                               // process-wide
    }

    /// Docs/Models.md, snippet 5 (line 104).
    static func snippet5(_ context: Context) throws {

        let order = ModelsDoc_Order()
        try show(order.save())                    // insert: both stamped
        order.status = "new"                // the same value again
        try show(order.save())
        try show(order.lastSet(\.status))         // now
        try show(order.lastChanged(\.status))     // still the insert's time
        show(order)
    }

    /// Docs/Models.md, snippet 6 (line 150).
    static func snippet6(_ context: Context) throws {
        let todo = context.todo
        show(todo.isNew)        // never saved (or deleted)
        show(todo.isDirty)      // differs from what was saved (or initialised)
        show(todo.changes)      // ["name": "a" → "b"]
        show(todo.revert())     // back to the saved (or initial) values
        try show(todo.reload()) // values from the store
    }

    /// Docs/Models.md, snippet 7 (line 163).
    static func snippet7(_ context: Context) throws {
        let todo = try ModelsDoc_Todo(["name": "walk", "due_date": "2012-09-15"])   // all or nothing
        try show(todo.set("due_date", to: "2012-09-19"))
        try show(todo["due_date"])       // .date(…)
        show(todo.attributes)            // ["id": nil, "name": "walk", …]
        show(todo)
    }
}

@Suite("Docs/Models.md snippets") struct ModelsDocSnippetTests {
    @Test func snippet1() throws { try privately { try ModelsDoc.withContext { try ModelsDoc.snippet1($0) } } }
    @Test func snippet2() throws { try privately { try ModelsDoc.withContext { try ModelsDoc.snippet2($0) } } }
    @Test func snippet3() throws { try privately { try ModelsDoc.withContext { try ModelsDoc.snippet3($0) } } }
    // snippet 4 is compiled only (marked compile-only in the document)
    @Test func snippet5() throws { try privately { try ModelsDoc.withContext { try ModelsDoc.snippet5($0) } } }
    @Test func snippet6() throws { try privately { try ModelsDoc.withContext { try ModelsDoc.snippet6($0) } } }
    @Test func snippet7() throws { try privately { try ModelsDoc.withContext { try ModelsDoc.snippet7($0) } } }
}
