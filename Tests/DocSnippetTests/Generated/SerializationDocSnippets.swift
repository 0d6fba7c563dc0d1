// Generated from Docs/Serialization.md by Scripts/doc-snippets.py: do not edit; edit the document and rerun.
// swift-format-ignore-file

import ArrayAdapter
import FileAdapter
import Foundation
import SQLiteAdapter
import Testing

// Docs/Serialization.md, snippet 2 (line 35)
final class SerializationDoc_Team: Model {
    @Column var name = ""
    @Column var apiToken = ""
    @Column var foundedAt: Date?
    @Column var level = 1
    @HasMany var players: Children<SerializationDoc_Player>
    init() {}

    static var jsonMapping: JSONMapping<SerializationDoc_Team> {
        JSONMapping(keyCase: .upperCamelCase, dates: .secondsSince1970, nulls: .explicit, unknownKeys: .ignore)
            .key("TeamName", for: \.name)                                   // external key → column
            .excluding(\.apiToken)                                          // never written or read
            .transforming(\.level, with: .lookup([1: "amateur", 2: "pro"])) // per-column transformer
            .nesting("players")                                             // children as an array
            .beforeDecoding { raw in                                        // adjust the raw dictionary
                if let old = raw.removeValue(forKey: "Title") { raw["TeamName"] = old }
            }
            .afterEncoding { team, out in out["kind"] = "team" }
    }
}

// Docs/Serialization.md, snippet 2 (line 35)
final class SerializationDoc_Player: Model {
    @Column var name = ""
    @BelongsTo var team: SerializationDoc_Team?
    init() {}
}

extension SerializationDoc {
    /// Docs/Serialization.md, snippet 1 (line 7).
    static func snippet1(_ context: Context) throws {
        let todo = context.todo
        let arrayData = context.arrayData
        let dictionary = try todo.dictionaryValue()      // [String: ModelValue], JSON-ready
        let data = try todo.jsonData()                   // compact, keys sorted
        let copy = try SerializationDoc_Todo(dictionary: dictionary)      // a new, unsaved record
        let again = try SerializationDoc_Todo(json: data)
        let todos = try SerializationDoc_Todo.records(fromJSON: arrayData)
        let text = try todos.jsonData()                  // an array

        let viaCodable = try JSONDecoder().decode(SerializationDoc_Todo.self, from: data)       // one object
        let many = try JSONDecoder().decode([SerializationDoc_Todo].self, from: text)           // an array
        show(dictionary, data, copy, again, todos, text, viaCodable, many)
    }

    /// Docs/Serialization.md, snippet 2 (line 35).
    static func snippet2(_ context: Context) throws {
        _ = context

    }

    /// Docs/Serialization.md, snippet 3 (line 119).
    static func snippet3(_ context: Context) throws {
        let encoder = JSONEncoder()
        encoder.userInfo[.serializationGraph] = SerializationGraph()
        show(encoder)
    }

    /// Docs/Serialization.md, snippet 4 (line 139).
    static func snippet4(_ context: Context) throws {
        let data = context.data
        let report = try SerializationDoc_Todo.importJSON(data) { conflict in
            conflict.changedColumns == ["notes"] ? .keepLocal : .takeIncoming
        }
        show(print(report))   // 3 inserted, 1 updated, 4 unchanged, 1 conflict
        show(report)
    }
}

@Suite("Docs/Serialization.md snippets") struct SerializationDocSnippetTests {
    @Test func snippet1() throws { try privately { try SerializationDoc.withContext { try SerializationDoc.snippet1($0) } } }
    @Test func snippet2() throws { try privately { try SerializationDoc.withContext { try SerializationDoc.snippet2($0) } } }
    @Test func snippet3() throws { try privately { try SerializationDoc.withContext { try SerializationDoc.snippet3($0) } } }
    @Test func snippet4() throws { try privately { try SerializationDoc.withContext { try SerializationDoc.snippet4($0) } } }
}
