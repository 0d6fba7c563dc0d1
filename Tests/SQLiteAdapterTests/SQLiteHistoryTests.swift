import Foundation
import SQLiteAdapter
import TestSupport
import Testing

/// SQLite's change history: every committed write of a model that keeps history —
/// through the model layer, in bulk, as raw SQL or by another tool on the file — is an
/// entry in commit order; rolled-back writes leave none; compaction folds old entries
/// and answers older cursors with `.historyCompacted`.
@Suite struct SQLiteHistoryTests {
    final class Note: Model {
        static var keepsHistory: Bool { true }
        @Column var title = ""
        @Column var body = ""
        @Column var pinned = false
        init() {}
    }

    /// A model without history, beside it.
    final class Draft: Model {
        @Column var text = ""
        init() {}
    }

    private func entries(_ store: SQLiteAdapter, after cursor: HistoryCursor = .start) throws -> [String] {
        try Note.history(after: cursor, in: store).entries.map { entry in
            let changed = entry.changedColumns.map { "(" + $0.joined(separator: ",") + ")" } ?? ""
            return "\(entry.action) \(entry.id)\(changed)"
        }
    }

    @Test func recordWritesAreEntriesInCommitOrderWithTheirChangedColumns() throws {
        let store = try SQLiteAdapter()
        let before = try store.historyHead()
        let note = try Note.create(["title": "a", "body": "x"], in: store)
        note.title = "b"
        note.pinned = true
        try note.save()
        try note.save()  // nothing changed: no write, no entry
        let draft = try Draft.create(["text": "not tracked"], in: store)
        #expect(try note.delete())
        #expect(try entries(store, after: before) == ["insert 1", "update 1(title,pinned)", "delete 1"])
        let page = try Note.history(after: .start, limit: 2, in: store)
        #expect(page.entries.count == 2 && page.hasMore && page.next == page.entries[1].cursor)
        let rest = try Note.history(after: page.next, in: store)
        #expect(rest.entries.map(\.action) == [.delete] && !rest.hasMore)
        #expect(rest.entries[0].cursor > page.next && rest.next == rest.entries[0].cursor)
        #expect(try store.historyHead() == rest.next)
        #expect(try Note.history(after: rest.next, in: store).entries.isEmpty)
        #expect(draft.id != nil)
        #expect(abs(rest.entries[0].recordedAt.timeIntervalSinceNow) < 60)
    }

    @Test func bulkWritesAndRawSQLAreEntriesPerRowAndARollbackLeavesNone() throws {
        let store = try SQLiteAdapter()
        for title in ["a", "b", "c"] { try Note.create(["title": .string(title)], in: store) }
        let head = try store.historyHead()
        #expect(try Note.query(in: store).where(\.title != "c").updateAll(["pinned": true]) == 2)
        try store.execute(#"UPDATE "notes" SET "body" = 'raw' WHERE "title" = 'c'"#)
        #expect(try Note.query(in: store).where(\.pinned == true).deleteAll() == 2)
        #expect(try entries(store, after: head) == ["update 1(pinned)", "update 2(pinned)", "update 3(body)", "delete 1", "delete 2"])

        let settled = try store.historyHead()
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try store.transaction {
                try Note.create(["title": "rolled back"], in: store)
                try store.execute(#"DELETE FROM "notes""#)
                throw Refused()
            }
        }
        #expect(try entries(store, after: settled).isEmpty, "a rolled-back transaction left no entry")
        #expect(try store.historyHead() == settled)
        try store.transaction {
            try Note.create(["title": "d"], in: store)
            try Note.create(["title": "e"], in: store)
        }
        let committed = try Note.history(after: settled, in: store).entries.map(\.cursor.rawValue)
        #expect(committed.count == 2 && committed[1] == committed[0] + 1, "one transaction's entries are consecutive")
    }

    @Test func anIDChangeIsTheOldIDsDeleteAndTheNewIDsInsert() throws {
        let store = try SQLiteAdapter()
        try Note.create(["title": "a"], in: store)
        let head = try store.historyHead()
        try store.execute(#"UPDATE "notes" SET "id" = 10, "title" = 'moved' WHERE "id" = 1"#)
        let moved = try entries(store, after: head)
        #expect(moved == ["delete 1", "insert 10"])
    }

    @Test func anotherToolWritingTheFileIsRecorded() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("notes.sqlite").path
            let store = try SQLiteAdapter(path: path)
            try Note.create(["title": "ours"], in: store)
            let head = try store.historyHead()
            _ = try runSQLite3(path, #"INSERT INTO "notes" ("title", "body", "pinned") VALUES ('theirs', '', 0); DELETE FROM "notes" WHERE "title" = 'ours';"#)
            #expect(try entries(store, after: head) == ["insert 2", "delete 1"])
        }
    }

    @Test func compactionFoldsOldEntriesAndAnOlderCursorIsTooOld() throws {
        let store = try SQLiteAdapter()
        try Note.create(["title": "a"], in: store)
        try Note.create(["title": "b"], in: store)
        let reader = try store.historyHead()
        try Note.create(["title": "c"], in: store)
        #expect(try store.compactHistory(before: Date(timeIntervalSinceNow: -3600)) == .start, "nothing that old")
        let horizon = try store.compactHistory(before: Date(timeIntervalSinceNow: 1))
        #expect(horizon == (try store.historyHead()), "everything recorded before now folded away")
        let error = #expect(throws: StoreError.self) { _ = try Note.history(after: reader, in: store) }
        #expect(error?.kind == .historyCompacted && error?.table == "swiftmodel_history")
        #expect(throws: StoreError.self) { _ = try Note.history(after: .start, in: store) }
        // Following from the head goes on, and cursors are never reused.
        let note = try Note.create(["title": "d"], in: store)
        let after = try Note.history(after: horizon, in: store)
        #expect(after.entries.map(\.id) == [.int(note.id ?? 0)] && after.entries[0].cursor > horizon)
    }

    @Test func aColumnAddedLaterIsTrackedAndHistoryCanBeTurnedOff() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("notes.sqlite").path
            let store = try SQLiteAdapter(path: path)
            try store.execute(#"CREATE TABLE "notes" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "title" TEXT NOT NULL DEFAULT '')"#)
            try store.execute(#"INSERT INTO "notes" ("title") VALUES ('old')"#)
            try store.prepare(Note.schema)  // adds body and pinned, and the triggers for all three
            let head = try store.historyHead()
            #expect(try Note.update(id: 1, set: ["pinned": true], in: store))
            #expect(try entries(store, after: head) == ["update 1(pinned)"])
            try store.close()

            // The same table for a model that keeps no history: the triggers go.
            let plain = try SQLiteAdapter(path: path)
            try plain.prepare(PlainNote.schema)
            try plain.execute(#"UPDATE "notes" SET "title" = 'untracked'"#)
            #expect(try plain.historyHead() == head.successor, "the one update before: nothing since")
        }
    }

    final class PlainNote: Model {
        static var tableName: String { "notes" }
        @Column var title = ""
        @Column var body = ""
        @Column var pinned = false
        init() {}
    }

    /// The async forms answer as the synchronous ones. (Each call is an `await`: resolved
    /// to a blocking overload, the build would warn that nothing is awaited, failing CI.)
    @Test func theAsyncFormsAnswerAsTheSynchronousOnes() async throws {
        let store = try SQLiteAdapter()
        let start = try await store.historyHead()
        try await Note.create(["title": "a"], in: store)
        try await Note.create(["title": "b"], in: store)
        let page = try await Note.history(after: start, limit: 1, in: store)
        #expect(page.entries.count == 1 && page.hasMore)
        #expect(try await store.history(after: start, limit: 10, tables: nil).entries.count == 2)
        #expect(try await store.historyHead() == (try store.historyHead()))
        let horizon = try await store.compactHistory(before: Date().addingTimeInterval(1))
        #expect(horizon == (try await store.historyHead()))
        await #expect(throws: StoreError.self) { _ = try await Note.history(after: start, in: store) }
    }

    @Test func aModelWithoutHistoryOrABadLimitIsRefused() throws {
        let store = try SQLiteAdapter()
        let draftHistory = #expect(throws: StoreError.self) { _ = try Draft.history(after: .start, in: store) }
        #expect(draftHistory?.kind == .invalidRequest)
        #expect(throws: StoreError.self) { _ = try store.history(after: .start, limit: 0, tables: nil) }
    }
}

extension HistoryCursor {
    fileprivate var successor: HistoryCursor { HistoryCursor(rawValue: rawValue + 1) }
}
