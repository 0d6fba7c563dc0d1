@testable import AdapterConformance
import FileAdapter
import Foundation
import Testing

/// A store file keeps the change history beside its rows: saved in the same atomic write,
/// reloaded with them, compaction included; a cursor from changes a crash lost is answered
/// "read everything again", never with the entries that replaced them.
@Suite struct FileAdapterHistoryTests {
    final class Chore: Model {
        static var keepsHistory: Bool { true }
        @Column var title = ""
        @Column var done = false
        init() {}
    }

    /// What each entry says: "insert 1", "update 1 [done]", "delete 2".
    static func described(_ page: HistoryPage) -> [String] {
        page.entries.map { "\($0.action) \($0.id)" + ($0.changedColumns.map { " [\($0.joined(separator: ","))]" } ?? "") }
    }

    @Test func theHistoryIsSavedWithTheRowsAndReloaded() throws {
        try withStoreFile { (store: FileAdapter, url: URL) throws in
            let first = try Chore.create(["title": "sweep"])
            let second = try Chore.create(["title": "mop"])
            first.done = true
            try first.save()
            try second.destroy()
            let written = try Chore.history(after: .start, in: store)
            try store.save()

            let reopened = try FileAdapter(file: url, configuration: explicitSaves)
            let read = try Chore.history(after: .start, in: reopened)
            #expect(read == written, "the reloaded entries are the saved ones, cursors and times included")
            #expect(Self.described(read) == ["insert 1", "insert 2", "update 1 [done]", "delete 2"])
            #expect(try reopened.historyHead() == written.next)

            try ModelStore.using(reopened) { _ = try Chore.create(["title": "dust"]) }
            let after = try Chore.history(after: written.next, in: reopened)
            #expect(Self.described(after) == ["insert 3"], "a reader at the saved head goes on with the new entries")
            #expect(after.entries[0].cursor > written.next)
        }
    }

    @Test func compactionIsSavedAndOlderCursorsStayRefused() throws {
        try withStoreFile { (store: FileAdapter, url: URL) throws in
            for title in ["a", "b", "c"] { _ = try Chore.create(["title": title]) }
            let page = try Chore.history(after: .start, in: store)
            let horizon = try store.compactHistory(before: Date.distantFuture)
            #expect(horizon == page.next, "every entry recorded before the date folds away")
            try store.save()

            let reopened = try FileAdapter(file: url, configuration: explicitSaves)
            let refused = #expect(throws: StoreError.self) { try reopened.history(after: .start, limit: 10, tables: nil) }
            #expect(refused?.kind == .historyCompacted)
            #expect(try reopened.historyHead() == horizon, "the horizon was saved")
            try ModelStore.using(reopened) { _ = try Chore.create(["title": "d"]) }
            #expect(Self.described(try Chore.history(after: horizon, in: reopened)) == ["insert 4"])
        }
    }

    /// Changes committed after the last save die with the process. A reader who already
    /// followed them must start over: the reloaded store refuses their cursor, and hands
    /// out no cursor of theirs again.
    @Test func aCursorFromChangesTheFileNeverGotIsRefused() throws {
        try withStoreFile { (store: FileAdapter, url: URL) throws in
            _ = try Chore.create(["title": "saved"])
            try store.save()
            let saved = try store.historyHead()
            _ = try Chore.create(["title": "lost"])
            let lost = try store.historyHead()
            #expect(lost > saved)

            // Another process opens the file as the crashed one left it.
            let survivor = try FileAdapter(file: url, configuration: explicitSaves)
            let refused = #expect(throws: StoreError.self) { try survivor.history(after: lost, limit: 10, tables: nil) }
            #expect(refused?.kind == .historyCompacted, "the lost entry's cursor is not in this history")
            try ModelStore.using(survivor) { _ = try Chore.create(["title": "replacement"]) }
            let fresh = try survivor.history(after: saved, limit: 10, tables: nil)
            #expect(Self.described(fresh) == ["insert 2"])
            #expect(fresh.entries[0].cursor > lost, "the replacement gets a cursor the lost run never gave")
            let stillRefused = #expect(throws: StoreError.self) { try survivor.history(after: lost, limit: 10, tables: nil) }
            #expect(stillRefused?.kind == .historyCompacted)
        }
    }

    @Test func replacingAModelsRowsFromItsOwnFileFoldsTheHistory() throws {
        try withStoreFile { (store: FileAdapter, url: URL) throws in
            let chores = url.deletingLastPathComponent().appendingPathComponent("chores.archive")
            _ = try Chore.create(["title": "a"])
            try Chore.serialize(to: chores)
            let cursor = try store.historyHead()
            _ = try Chore.create(["title": "b"])
            try Chore.deserialize(from: chores)
            let refused = #expect(throws: StoreError.self) { try store.history(after: cursor, limit: 10, tables: nil) }
            #expect(refused?.kind == .historyCompacted, "rows replaced wholesale: readers resync")
            #expect(try Chore.count() == 1)
        }
    }

    @Test func aStoreWithoutAStoreFileRefusesAModelThatKeepsHistory() throws {
        let store = FileAdapter(configuration: explicitSaves)
        let refused = #expect(throws: StoreError.self) { try ModelStore.using(store) { try Chore.create(["title": "a"]) } }
        #expect(refused?.kind == .invalidRequest)
        #expect(refused?.message.contains("keeps history") == true, "\(String(describing: refused))")
    }

    /// A tool that edits the archive and leaves an entry no store writes is named, and the
    /// store keeps what it had.
    @Test func aDamagedHistoryEntryIsAnArchiveErrorThatChangesNothing() throws {
        try withStoreFile { (store: FileAdapter, url: URL) throws in
            _ = try Chore.create(["title": "a"])
            _ = try Chore.create(["title": "b"])
            try store.save()
            let before = try Chore.history(after: .start, in: store)
            _ = try python(
                #"""
                import plistlib, sys
                p = plistlib.load(open(sys.argv[1], 'rb'))
                objs = p['$objects']
                root = objs[p['$top']['root'].data]
                for t in objs[root['tables'].data]['NS.objects']:
                    table = objs[t.data]
                    if objs[table['name'].data] == 'swiftmodel_history':
                        record = objs[objs[table['records'].data]['NS.objects'][1].data]
                        record['action'] = 7
                plistlib.dump(p, open(sys.argv[1], 'wb'), fmt=plistlib.FMT_BINARY)
                """#, [url.path])
            let error = #expect(throws: ArchiveError.self) { try store.load() }
            #expect(error?.kind == .invalidValue)
            #expect(error?.table == "swiftmodel_history")
            #expect(error?.column == "action")
            #expect(error?.message.contains("record 1") == true, "\(String(describing: error))")
            #expect(try Chore.history(after: .start, in: store) == before, "the failed load left the history as it was")
            #expect(try Chore.count() == 2)
        }
    }
}
