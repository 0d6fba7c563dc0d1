// Generated from the `///` comments of Sources/ModelSerialization by Scripts/doc-snippets.py: do not edit;
// edit the comments and rerun. Compiled, not run.
// swift-format-ignore-file

@testable import ModelSerialization
import ArrayAdapter
import FileAdapter
import Foundation
import PostgresAdapter
import RESTAdapter
import SQLiteAdapter
import Testing

extension SourceModelSerializationDoc {
    /// Sources/ModelSerialization/Model+Codable.swift, snippet 1.
    static func ModelCodable1(_ given: Context) throws {
        let data = given.data
        let todo = try JSONDecoder().decode(SourceDoc_Todo.self, from: data)
        let todos = try JSONDecoder().decode([SourceDoc_Todo].self, from: data)
        show(todo, todos)
    }

    /// Sources/ModelSerialization/Model+Codable.swift, snippet 2.
    static func ModelCodable2(_ given: Context) throws {
        let authors = given.authors
        let encoder = JSONEncoder()
        encoder.userInfo[.serializationGraph] = SerializationGraph()
        let data = try encoder.encode(authors)          // a shared publisher is written once

        let decoder = JSONDecoder()
        decoder.userInfo[.serializationGraph] = SerializationGraph()
        let back = try decoder.decode([SourceDoc_Author].self, from: data)
        show(encoder, data, decoder, back)
    }

    /// Sources/ModelSerialization/Model+Import.swift, snippet 1.
    static func ModelImport1(_ given: Context) throws {
        let data = given.data
        let report = try SourceDoc_Todo.importJSON(data) { conflict in
            conflict.changedColumns == ["notes"] ? .keepLocal : .takeIncoming
        }
        show(print(report))   // 3 inserted, 1 updated, 0 unchanged, 1 conflict
        show(report)
    }

    /// Sources/ModelSerialization/Model+Serialization.swift, snippet 1.
    static func ModelSerialization1(_ given: Context) throws {
        let todo = given.todo
        try show(todo.dictionaryValue())   // ["id": 1, "name": "walk", "due_date": "2012-09-15T00:00:00.000Z", …]
    }

    /// Sources/ModelSerialization/Model+Serialization.swift, snippet 2.
    static func ModelSerialization2(_ given: Context) throws {
        let team = try SourceDoc_Team(dictionary: ["TeamName": "Rovers", "players": [["name": "Ann"]]])
        try show(team.players.count())     // 1 (read from the dictionary, not a store)
        show(team)
    }

    /// Sources/ModelSerialization/Model+Serialization.swift, snippet 3.
    static func ModelSerialization3(_ given: Context) throws {
        let data = given.data
        let teams = try SourceDoc_Team.records(fromJSON: data)
        show(teams)
    }

    /// Sources/ModelSerialization/RowJSONCodec.swift, snippet 1.
    static func RowJSONCodec1(_ given: Context) throws {
        let row = given.row
        let codec = try RowJSONCodec.codec(for: SourceDoc_Team.schema)
        let object = try codec.object(from: row)      // ["id": 1, "TeamName": "Rovers", …]
        let back = try codec.row(from: object)        // the row, cast by the casting rules
        show(codec, object, back)
    }
}
