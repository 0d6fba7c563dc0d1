import ArrayAdapter
import Foundation
import Testing

final class Item: Model {
    @Column var name: String = ""
    @Column var rank: Int = 0
    init() {}
}

final class OtherItem: Model {
    static var tableName: String { "items" }  // claims Item's table
    @Column var label: String = ""
    init() {}
}

@Suite("ArrayAdapter")
struct ArrayAdapterTests {
    let schema = Item.schema

    func row(_ id: ModelValue, _ name: String, _ rank: Int64 = 0) -> [ModelValue] { [id, .string(name), .int(rank)] }

    @Test func insertAssignsIncreasingIdsAndKeepsExplicitOnes() throws {
        let store = ArrayAdapter()
        #expect(try store.insert(row(nil, "a"), into: schema) == 1)
        #expect(try store.insert(row(10, "b"), into: schema) == 10)
        #expect(try store.insert(row(nil, "c"), into: schema) == 11)
        #expect(try store.insert(row(5, "d"), into: schema) == 5)
        #expect(try store.insert(row(nil, "e"), into: schema) == 12)
        let error = #expect(throws: StoreError.self) { try store.insert(row(10, "dup"), into: schema) }
        #expect(error?.kind == .duplicateID)
        #expect(try store.find(id: 10, in: schema) == row(10, "b"))
        #expect(try store.count(StoreQuery(schema: schema)) == 5)
    }

    @Test func findUpdateDelete() throws {
        let store = ArrayAdapter()
        _ = try store.insert(row(nil, "a"), into: schema)
        try store.update(row(1, "a2", 3), changedColumns: [1, 2], in: schema)
        #expect(try store.find(id: 1, in: schema) == row(1, "a2", 3))
        #expect(try store.find(id: 2, in: schema) == nil)
        #expect(try store.find(id: "1", in: schema) == nil)
        let missing = #expect(throws: StoreError.self) { try store.update(row(2, "x"), changedColumns: [1], in: schema) }
        #expect(missing?.kind == .notFound)
        #expect(try store.delete(id: 1, from: schema))
        #expect(try !store.delete(id: 1, from: schema))
        #expect(try store.fetch(StoreQuery(schema: schema)).isEmpty)
    }

    @Test func malformedRowsAreRefused() throws {
        let store = ArrayAdapter()
        let error = #expect(throws: StoreError.self) { try store.insert([nil, "a"], into: schema) }
        #expect(error?.kind == .invalidRequest)
        #expect(try store.count(StoreQuery(schema: schema)) == 0)
    }

    @Test func insertionOrderSurvivesDeletesAndCompaction() throws {
        let store = ArrayAdapter()
        for k in 0..<1_000 { _ = try store.insert(row(nil, "n\(k)", Int64(k)), into: schema) }
        for id in stride(from: 1, through: 1_000, by: 3) { _ = try store.delete(id: .int(Int64(id)), from: schema) }
        for id in stride(from: 2, through: 1_000, by: 3) { _ = try store.delete(id: .int(Int64(id)), from: schema) }
        let ids = try store.fetch(StoreQuery(schema: schema)).map(\.[0])
        #expect(ids == stride(from: 3, through: 1_000, by: 3).map { .int(Int64($0)) })
        #expect(try store.find(id: 999, in: schema) == row(999, "n998", 998))  // index rebuilt correctly
        _ = try store.insert(row(nil, "new"), into: schema)
        #expect(try store.fetch(StoreQuery(schema: schema)).last?[0] == 1_001)
    }

    @Test func queriesFilterSortAndPage() throws {
        let store = ArrayAdapter()
        for (name, rank) in [("c", 2), ("a", 1), ("b", 2), ("d", 0)] {
            _ = try store.insert(row(nil, name, Int64(rank)), into: schema)
        }
        let query = StoreQuery(
            schema: schema, predicate: .compare(column: 2, .greaterOrEqual, 1),
            sort: [SortKey(column: 2, ascending: false), SortKey(column: 1)], limit: 2, offset: 1)
        #expect(try store.fetch(query).map(\.[1]) == ["c", "a"])
        #expect(try store.count(query) == 2)
        #expect(try store.delete(StoreQuery(schema: schema, predicate: .compare(column: 2, .equal, 2))) == 2)
        #expect(try store.fetch(StoreQuery(schema: schema)).map(\.[1]) == ["a", "d"])
    }

    @Test func twoModelsCannotShareATable() throws {
        let store = ArrayAdapter()
        try store.prepare(Item.schema)
        let error = #expect(throws: StoreError.self) { try store.prepare(OtherItem.schema) }
        #expect(error?.kind == .invalidRequest)
    }

    @Test func resetEmptiesButNotInsideATransaction() throws {
        let store = ArrayAdapter()
        _ = try store.insert(row(nil, "a"), into: schema)
        try store.reset()
        #expect(try store.count(StoreQuery(schema: schema)) == 0)
        #expect(try store.insert(row(nil, "b"), into: schema) == 1)
        #expect(throws: StoreError.self) { try store.withTransaction { try store.reset() } }
    }

    @Test func rawTransactionsUndoExactlyTheirLevel() throws {
        let store = ArrayAdapter()
        _ = try store.insert(row(nil, "keep"), into: schema)
        struct Boom: Error {}
        try store.withTransaction {
            _ = try store.insert(row(nil, "outer"), into: schema)
            #expect(throws: Boom.self) {
                try store.withTransaction {
                    try store.update(row(1, "changed"), changedColumns: [1], in: schema)
                    _ = try store.delete(id: 2, from: schema)
                    _ = try store.insert(row(nil, "inner"), into: schema)
                    throw Boom()
                }
            }
        }
        #expect(try store.fetch(StoreQuery(schema: schema)).map(\.[1]) == ["keep", "outer"])
        #expect(try store.insert(row(nil, "next"), into: schema) == 3)
    }

    @Test func concurrentWritersLoseNoRows() async throws {
        let store = ArrayAdapter()
        let writers = 8, perWriter = 500
        try await withThrowingTaskGroup(of: Void.self) { group in
            for w in 0..<writers {
                group.addTask {
                    try ModelStore.using(store) {
                        for k in 0..<perWriter {
                            let item = Item()
                            item.name = "w\(w)-\(k)"
                            try item.save()
                            if k % 10 == 0 {
                                item.rank = k
                                try item.save()
                            }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let all = try await Item.all(in: store)
        #expect(all.count == writers * perWriter)
        #expect(Set(all.compactMap(\.id)).count == writers * perWriter)
        #expect(Set(all.map(\.name)).count == writers * perWriter)
        #expect(all.filter { $0.rank > 0 }.count == writers * (perWriter / 10 - 1))
    }

    @Test func transactionsAreIsolatedFromOtherThreads() async throws {
        let store = ArrayAdapter()
        // Each task moves "balance" between two rows inside a transaction; readers in
        // other tasks must always see the total unchanged.
        _ = try store.insert(row(nil, "a", 1_000), into: schema)
        _ = try store.insert(row(nil, "b", 1_000), into: schema)
        let schema = self.schema
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for t in 0..<4 {
                group.addTask {
                    for k in 0..<200 {
                        try store.withTransaction {
                            let a = try store.find(id: 1, in: schema)!, b = try store.find(id: 2, in: schema)!
                            guard case .int(let x) = a[2], case .int(let y) = b[2] else { return }
                            let amount = Int64((t + k) % 7)
                            try store.update([1, "a", .int(x - amount)], changedColumns: [2], in: schema)
                            try store.update([2, "b", .int(y + amount)], changedColumns: [2], in: schema)
                        }
                    }
                    return true
                }
                group.addTask {
                    for _ in 0..<400 {
                        let rows = try store.fetch(StoreQuery(schema: schema))
                        let total = rows.reduce(Int64(0)) { sum, row in
                            if case .int(let v) = row[2] { return sum + v } else { return sum }
                        }
                        if total != 2_000 { return false }
                    }
                    return true
                }
            }
            for try await consistent in group { #expect(consistent) }
        }
    }
}

/// ArrayAdapter's change history in memory (the conformance suite checks the rest): a
/// rolled-back savepoint takes back only its entries, `reset()` makes older cursors too
/// old without reusing any, and compaction inside a transaction is refused.
@Suite struct ArrayAdapterHistoryTests {
    final class Tracked: Model {
        static var keepsHistory: Bool { true }
        @Column var name = ""
        init() {}
    }

    struct Refused: Error {}

    @Test func aRolledBackSavepointTakesBackOnlyItsEntries() throws {
        let store = ArrayAdapter()
        try store.transaction {
            try Tracked.create(["name": "kept"], in: store)
            #expect(throws: Refused.self) {
                try store.transaction {
                    try Tracked.create(["name": "undone"], in: store)
                    throw Refused()
                }
            }
            try Tracked.create(["name": "also kept"], in: store)
            let error = #expect(throws: StoreError.self) { try store.compactHistory(before: Date()) }
            #expect(error?.kind == .invalidRequest)
        }
        let entries = try Tracked.history(after: .start, in: store).entries
        #expect(entries.map(\.id) == [.int(1), .int(2)] && entries.map(\.cursor.rawValue) == [1, 2], "\(entries)")
    }

    @Test func resetMakesOlderCursorsTooOldAndCursorsGoOn() throws {
        let store = ArrayAdapter()
        try Tracked.create(["name": "a"], in: store)
        let head = try store.historyHead()
        try store.reset()
        let error = #expect(throws: StoreError.self) { _ = try Tracked.history(after: .start, in: store) }
        #expect(error?.kind == .historyCompacted)
        let record = try Tracked.create(["name": "b"], in: store)
        let after = try Tracked.history(after: head, in: store).entries
        #expect(after.map(\.id) == [record.id.map { .int($0) } ?? .null] && after.first.map { $0.cursor > head } == true)
    }
}
