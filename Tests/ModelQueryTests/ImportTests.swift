import ArrayAdapter
import Foundation
import ModelCore
import ModelQuery
import Testing

@Suite("Import")
struct ImportTests {
    static let synced = Date(timeIntervalSince1970: 1_000_000)
    static let later = Date(timeIntervalSince1970: 2_000_000)

    /// Three stored notes, all last synced at `synced`; note 3 then edited locally.
    static func seed() throws {
        // An import keeps the updated_at it is sent (a plain save would stamp the clock).
        let first = try WireNote.importRecords(
            ["one", "two", "three"].enumerated().map { k, title in
                ["id": .int(Int64(k + 1)), "title": .string(title), "body": .string("body \(k + 1)"), "updated_at": .date(synced)]
            })
        #expect(first.inserted == [1, 2, 3])
        #expect(try WireNote.find(1)?.updatedAt == synced)
        // A local edit: saving stamps updated_at with the clock, later than `synced`.
        let three = try #require(try WireNote.find(3))
        three.body = "edited here"
        try three.save()
    }

    static func incoming(_ notes: [[String: ModelValue]]) -> Data {
        Data(ModelJSON.serialize(.array(notes.map { .dictionary($0) })).utf8)
    }

    static let serverNow = "1970-01-24T00:00:00.000Z"  // 1,987,200 s: after `synced`, before local edits

    @Test(arguments: ["keepLocal", "takeIncoming", "merge"])
    func upsertsByIDAndResolvesConflicts(_ resolution: String) throws {
        try withWireStore { _ in
            try Self.seed()
            var seen: [(index: Int, local: String, incoming: String)] = []
            let report = try WireNote.importJSON(
                Self.incoming([
                    ["id": 1, "title": "one", "body": "body 1"],  // equal: unchanged
                    ["id": 2, "title": "two (server)", "updated_at": .string(Self.serverNow)],  // updated
                    ["id": 3, "body": "server body", "updated_at": .string(Self.serverNow)],  // conflict
                    ["id": 10, "title": "ten", "updated_at": .string(Self.serverNow)],  // new id: inserted
                    ["title": "no id"],  // no id: inserted
                ])
            ) { conflict in
                seen.append((conflict.index, conflict.local.body, conflict.incoming.body))
                switch resolution {
                case "keepLocal": return .keepLocal
                case "takeIncoming": return .takeIncoming
                default: return .merge(["body": .string(conflict.local.body + " + " + conflict.incoming.body)])
                }
            }
            #expect(report.inserted == [10, 11])
            #expect(report.updated == [2])
            #expect(report.unchanged == [1])
            #expect(report.conflicts.map(\.id) == [3])
            #expect(report.conflicts.first?.changedColumns == ["body", "updated_at"])
            #expect(report.description == "2 inserted, 1 updated, 1 unchanged, 1 conflict")
            #expect(seen.count == 1 && seen[0].index == 2 && seen[0].local == "edited here" && seen[0].incoming == "server body")

            let two = try #require(try WireNote.find(2))
            #expect(two.title == "two (server)" && two.body == "body 2")  // keys left out are kept
            #expect(two.updatedAt == DateCodecProbe.date(Self.serverNow))  // the incoming timestamp is kept
            let three = try #require(try WireNote.find(3))
            switch resolution {
            case "keepLocal": #expect(three.body == "edited here" && three.title == "three")
            case "takeIncoming":
                #expect(three.body == "server body" && three.title == "three")
                #expect(three.updatedAt == DateCodecProbe.date(Self.serverNow))
            default: #expect(three.body == "edited here + server body")
            }
            #expect(try WireNote.find(10)?.updatedAt == DateCodecProbe.date(Self.serverNow))
            #expect(try WireNote.find(11)?.title == "no id")
            #expect(try WireNote.count() == 5)
        }
    }

    @Test func aFailureRollsTheWholeImportBack() throws {
        try withWireStore { store in
            try Self.seed()
            let before = try WireNote.all().map(\.attributes)
            let error = #expect(throws: SerializationError.self) {
                try WireNote.importJSON(
                    Self.incoming([
                        ["id": 2, "title": "changed"], ["id": 20, "title": "new"],
                        ["id": 21, "pinned": "perhaps"],
                    ]))
            }
            #expect(error?.keyPath == "[2].pinned" && error?.expected == "bool")
            #expect(try WireNote.all().map(\.attributes) == before)
            _ = store
        }
    }

    @Test func aCustomModificationTestDecides() throws {
        try withWireStore { _ in
            try Self.seed()
            // Every difference is a conflict; the resolver keeps local pinned notes only.
            let report = try WireNote.importRecords(
                [["id": 1, "title": "one!"], ["id": 2, "pinned": true]],
                resolve: { $0.local.pinned ? .keepLocal : .takeIncoming },
                isLocallyModified: { _, _ in true })
            #expect(report.conflicts.map(\.resolution) == [.takeIncoming, .takeIncoming])
            #expect(report.updated.isEmpty)
            #expect(try WireNote.find(1)?.title == "one!")
            #expect(try WireNote.find(2)?.pinned == true)
        }
    }

    @Test func theDocumentMustBeAnArray() {
        withWireStore { _ in
            let error = #expect(throws: SerializationError.self) { try WireNote.importJSON(Data("{\"id\": 1}".utf8)) }
            #expect(error?.kind == .invalidJSON)
        }
    }
}

/// Parses ISO 8601 through the model layer (the casting rules).
enum DateCodecProbe {
    static func date(_ text: String) -> Date? {
        (try? Caster.cast(.string(text), to: CastTarget(.date))).flatMap { if case .date(let d) = $0 { d } else { nil } }
    }
}
