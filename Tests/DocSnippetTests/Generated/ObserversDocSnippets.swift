// Generated from Docs/Observers.md by Scripts/doc-snippets.py: do not edit; edit the document and rerun.
// swift-format-ignore-file

import ArrayAdapter
import FileAdapter
import Foundation
import SQLiteAdapter
import Testing

extension ObserversDoc {
    /// Docs/Observers.md, snippet 1 (line 5).
    static func snippet1(_ context: Context) throws {
        let todo = context.todo
        let observation = try todo.observe(\.name) { old, new in
            print("name: \(old) → \(new)")
        }
        try show(todo.observe("due_date") { old, new in print(old, new) })   // by column name, ModelValue values
        show(observation.cancel())
        show(observation)
    }

    /// Docs/Observers.md, snippet 2 (line 26).
    static func snippet2(_ context: Context) throws {
        let todo = context.todo
        let label = context.label
        let left = context.left
        let right = context.right
        try show(label.bind(\.title, to: todo, \.name))                 // todo.name → label.title
        try show(left.bind(\.size, to: right, \.size, twoWay: true))    // both ways
    }
}

@Suite("Docs/Observers.md snippets") struct ObserversDocSnippetTests {
    @Test func snippet1() throws { try privately { try ObserversDoc.withContext { try ObserversDoc.snippet1($0) } } }
    @Test func snippet2() throws { try privately { try ObserversDoc.withContext { try ObserversDoc.snippet2($0) } } }
}
