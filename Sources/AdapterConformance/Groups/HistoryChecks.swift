import Foundation
import ModelCore
import ModelQuery

/// Change history: the same entries, cursors, pages and compaction on every store that
/// keeps it; a store that keeps none refuses a model that asks for it.
enum HistoryChecks {
    private struct Refused: Error {}

    /// What each entry says, in order: "insert 1", "update 1 [title]", "delete 1".
    private static func described(_ page: HistoryPage) -> [String] {
        page.entries.map { entry in
            "\(entry.action) \(entry.id)" + (entry.changedColumns.map { " [\($0.joined(separator: ","))]" } ?? "")
        }
    }

    static func history(_ c: ConformanceChecker) throws {
        guard let store = c.store as? any HistoryKeepingAdapter else {
            let refusal = c.expectThrows(StoreError.self, "a store that keeps no history refuses a model that keeps one") {
                try ConformanceJournaled.create(["title": "a"])
            }
            c.equal(refusal?.kind, .invalidRequest, "the refusal's kind")
            _ = c.expectThrows(StoreError.self, "reads of the refused model are refused too") { _ = try ConformanceJournaled.count() }
            return
        }
        try recording(c, store)
        try paging(c, store)
        try compaction(c, store)
    }

    private static func recording(_ c: ConformanceChecker, _ store: some HistoryKeepingAdapter) throws {
        let start = try store.historyHead()
        let record = try ConformanceJournaled.create(["title": "a", "rank": 1])
        let id = record.id ?? 0
        record.title = "b"
        record.note = "n"
        try record.save()
        record.rank = 1
        try record.save()  // nothing changed
        _ = try ConformancePerson.create(["name": "untracked"])
        c.equal(
            described(try ConformanceJournaled.history(after: start, in: store)),
            ["insert \(ModelValue.int(id))", "update \(ModelValue.int(id)) [title,note]"],
            "a save is an entry: an insert, an update naming the changed columns, none without changes")

        let second = try ConformanceJournaled.create(["title": "c", "rank": 2])
        let beforeBulk = try store.historyHead()
        c.equal(try ConformanceJournaled.query().updateAll(["rank": 5]), 2, "bulk update")
        c.equal(try ConformanceJournaled.where(\.rank == 5).deleteAll(), 2, "bulk delete")
        let bulk = try ConformanceJournaled.history(after: beforeBulk, in: store)
        c.equal(bulk.entries.map(\.action), [.update, .update, .delete, .delete], "bulk writes are an entry per row")
        c.equal(Set(bulk.entries.map(\.id)), [.int(id), .int(second.id ?? 0)], "the bulk entries' ids")
        c.equal(bulk.entries.first?.changedColumns, ["rank"], "a bulk update's changed columns")

        guard c.hasTransactions("a rolled-back write leaves no entry") else { return }
        let settled = try store.historyHead()
        _ = c.expectThrows(Refused.self, "a throwing transaction") {
            try c.store.transaction {
                try ConformanceJournaled.create(["title": "rolled back"])
                throw Refused()
            }
        }
        c.equal(try store.historyHead(), settled, "a rolled-back transaction leaves no entry")
        try c.store.transaction {
            try ConformanceJournaled.create(["title": "d"])
            try ConformanceJournaled.create(["title": "e"])
        }
        let cursors = try ConformanceJournaled.history(after: settled, in: store).entries.map(\.cursor.rawValue)
        c.expect(cursors.count == 2 && cursors[1] == cursors[0] + 1, "one transaction's entries are consecutive: \(cursors)")
    }

    private static func paging(_ c: ConformanceChecker, _ store: some HistoryKeepingAdapter) throws {
        let start = try store.historyHead()
        for k in 0..<5 { try ConformanceJournaled.create(["title": .string("page \(k)")]) }
        let first = try store.history(after: start, limit: 2, tables: [ConformanceJournaled.tableName])
        c.expect(first.entries.count == 2 && first.hasMore, "a page cut at its limit says more follow")
        c.equal(first.next, first.entries.last?.cursor, "a cut page goes on from its last entry")
        let rest = try store.history(after: first.next, limit: 10, tables: [ConformanceJournaled.tableName])
        c.expect(rest.entries.count == 3 && !rest.hasMore, "the rest in one page")
        c.expect(rest.entries.first.map { $0.cursor > first.next } ?? false, "no entry read twice")
        c.equal(rest.next, try store.historyHead(), "a complete page goes on from the head")
        _ = try ConformancePerson.create(["name": "other table"])
        let skipped = try store.history(after: rest.next, limit: 10, tables: [ConformanceJournaled.tableName])
        let head = try store.historyHead()
        c.expect(skipped.entries.isEmpty && skipped.next == head, "other tables' entries are skipped past")
        _ = c.expectThrows(StoreError.self, "a limit below 1") { _ = try store.history(after: .start, limit: 0, tables: nil) }
    }

    private static func compaction(_ c: ConformanceChecker, _ store: some HistoryKeepingAdapter) throws {
        let reader = try store.historyHead()
        try ConformanceJournaled.create(["title": "old"])
        c.equal(try store.compactHistory(before: Date(timeIntervalSince1970: 0)) <= reader, true, "compacting before 1970 folds nothing new")
        let horizon = try store.compactHistory(before: Date().addingTimeInterval(3600))
        c.equal(horizon, try store.historyHead(), "compacting before a later time folds everything")
        let error = c.expectThrows(StoreError.self, "a read after a compacted cursor") {
            _ = try ConformanceJournaled.history(after: reader, in: store)
        }
        c.equal(error?.kind, .historyCompacted, "the compacted read's kind")
        let next = try ConformanceJournaled.create(["title": "new"])
        let after = try ConformanceJournaled.history(after: horizon, in: store)
        c.equal(after.entries.map(\.id), [.int(next.id ?? 0)], "following from the horizon goes on")
        c.expect(after.entries.first.map { $0.cursor > horizon } ?? false, "cursors are never reused after compaction")
    }
}
