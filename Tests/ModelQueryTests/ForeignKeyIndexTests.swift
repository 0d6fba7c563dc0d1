import ArrayAdapter
import Foundation
import Testing

/// A model with an indexed string column.
final class IndexedLabel: Model {
    @Column(options: .indexed) var label: String = ""
    init() {}
}

/// ArrayAdapter's foreign-key indexes stay exact through inserts, moves, deletes,
/// rollbacks and compaction: an indexed lookup always equals a full scan.
@Suite struct ForeignKeyIndexTests {
    func check(_ boards: [Board], sourceLocation: SourceLocation = #_sourceLocation) throws {
        for board in boards {
            let id = board.id.modelValue
            let indexed = try Assignee.where("board_id").eq(id).pluck("id")
            // An OR defeats the index: the same answer by a scan.
            let scanned = try Assignee.where("board_id").eq(id).or("name").eq("\u{1}never").pluck("id")
            #expect(indexed == scanned, sourceLocation: sourceLocation)
            #expect(try board.assignees.count() == scanned.count, sourceLocation: sourceLocation)
        }
        // A list answered by the index alone (integer keys) equals the scan too.
        let ids = boards.map(\.id.modelValue) + [.int(999_999), .null]
        let listed = try Assignee.where("board_id").in(ids).pluck("id")
        let scanned = try Assignee.where("board_id").in(ids).or("name").eq("\u{1}never").pluck("id")
        #expect(listed == scanned, sourceLocation: sourceLocation)
    }

    /// The index's string equality is Unicode-canonical; the engine's (and SQLite's) is by
    /// bytes, so a string lookup still tests each hit.
    @Test func indexedStringsCompareByBytes() throws {
        try withStore { (_: ArrayAdapter) throws in
            let composed = try IndexedLabel.create(["label": "\u{E9}"])  // é
            _ = try IndexedLabel.create(["label": "e\u{301}"])  // e + combining acute
            #expect(try IndexedLabel.where("label").eq("\u{E9}").pluck("id") == [composed.id.modelValue])
            #expect(try IndexedLabel.where("label").in(["\u{E9}", "x"]).pluck("id") == [composed.id.modelValue])
        }
    }

    @Test func indexMatchesScanThroughEveryKindOfWrite() throws {
        try withStore { (store: ArrayAdapter) throws in
            var state: UInt64 = 42
            func next(_ n: Int) -> Int {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Int((state >> 33) % UInt64(n))
            }
            let boards = try (0..<5).map { try Board.create(["title": .string("b\($0)")]) }
            var people: [Assignee] = []
            for k in 0..<300 {
                let person = try boards[next(5)].assignees.create(["name": .string("p\(k)")])
                people.append(person)
            }
            try check(boards)
            for _ in 0..<200 { try boards[next(5)].assignees.append(people[next(people.count)]) }  // moves
            for _ in 0..<50 { _ = try boards[0].assignees.remove(people[next(people.count)]) }
            try check(boards)
            struct Boom: Error {}
            #expect(throws: Boom.self) {
                try store.transaction {
                    for person in people.prefix(100) { try boards[4].assignees.append(person) }
                    for person in people.suffix(50) { try person.delete() }
                    throw Boom()
                }
            }
            for person in people { try person.reload() }
            try check(boards)
            for person in people.prefix(250) { try person.delete() }  // enough to compact
            try check(boards)
            #expect(try Assignee.count() == 50)
            try Assignee.where("board_id").eq(boards[1].id.modelValue).updateAll(["board_id": boards[2].id.modelValue])
            try check(boards)
            #expect(try boards[1].assignees.count() == 0)
        }
    }
}
