import FileAdapter
import Foundation
import Testing

/// A member whose handle is unique.
final class Member: Model {
    static var tableName: String { "members" }
    @Column(options: .unique) var handle: String?
    init() {}
}

/// The same table as another tool might write it: no unique constraint.
final class LooseMember: Model {
    static var tableName: String { "members" }
    @Column var handle: String?
    init() {}
}

/// `close()`: pending changes written, later calls refused, a failed write keeps the
/// store open; unique columns enforced on files written elsewhere.
@Suite struct FileAdapterCloseTests {
    private func titles(in url: URL) throws -> [String] {
        try FileAdapter(file: url, configuration: explicitSaves).fetch(StoreQuery(schema: Jot.schema)).compactMap {
            $0[Jot.schema.index(ofColumn: "title") ?? 0].stringValue
        }
    }

    @Test func closeWritesPendingChangesThenRefusesEveryCall() throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("closing.archive")
            var configuration = FileAdapter.Configuration()
            configuration.autosave = .afterCommit(coalescing: .milliseconds(300))
            let store = try FileAdapter(file: url, configuration: configuration)
            try Jot.create(["title": "one"], in: store)
            try Jot.create(["title": "two"], in: store)
            #expect(store.filesWritten.load(ordering: .relaxed) == 0, "autosave is still waiting")
            try store.close()
            #expect(try titles(in: url) == ["one", "two"], "close() wrote what autosave had not yet")
            let written = store.filesWritten.load(ordering: .relaxed)
            for call in [{ _ = try Jot.create(["title": "late"], in: store) }, { try store.save() }, { try store.flush() }, { try store.reset() }] {
                let error = #expect(throws: StoreError.self) { try call() }
                #expect(error?.kind == .closed)
            }
            try store.close()  // closing again does nothing
            usleep(500_000)  // past the autosave window: the scheduled save finds the store closed
            #expect(store.filesWritten.load(ordering: .relaxed) == written, "nothing is written after close()")
            #expect(try titles(in: url) == ["one", "two"], "a save after close() did not empty the file")
            #expect(store.lastAutosaveError == nil)
        }
    }

    @Test func aCloseWhoseWriteFailsKeepsTheStoreOpenAndLosesNothing() throws {
        try withTemporaryDirectory { directory in
            let folder = directory.appendingPathComponent("not-yet")
            let url = folder.appendingPathComponent("store.archive")
            let store = try FileAdapter(file: url, configuration: explicitSaves)
            try Jot.create(["title": "kept"], in: store)
            #expect(throws: (any Error).self) { try store.close() }
            #expect(try Jot.count(in: store) == 1, "the store still serves after a failed close()")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try store.close()
            #expect(try titles(in: url) == ["kept"])
        }
    }

    @Test func uniqueColumnsAreEnforcedAndAFileThatBreaksThemIsRefused() throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("members.archive")
            let writer = try FileAdapter(file: url, configuration: explicitSaves)
            for handle in ["ann", "bob", "ann"] { try LooseMember.create(["handle": .string(handle)], in: writer) }
            try writer.close()
            let error = #expect(throws: ArchiveError.self) { try FileAdapter(file: url, models: [Member.self]) }
            #expect(error?.kind == .invalidValue && error?.column == "handle" && error?.table == "members")
            #expect(error.map { ($0 as any SwiftModelError).columnName } == "handle")
            #expect(try FileAdapter(file: url, models: [LooseMember.self]).count(StoreQuery(schema: LooseMember.schema)) == 3)

            let store = FileAdapter(configuration: explicitSaves)
            try Member.create(["handle": "ann"], in: store)
            let clash = #expect(throws: StoreError.self) { try Member.create(["handle": "ann"], in: store) }
            #expect(clash?.kind == .uniqueViolation && clash?.column == "handle")
        }
    }
}
