@testable import AdapterConformance
import ArrayAdapter
import FileAdapter
import Foundation
import Testing

@Suite struct FileAdapterRoundTripTests {
    @Test func everyColumnTypeRoundTripsExactly() throws {
        try withStoreFile { (store: FileAdapter, url: URL) throws in
            for specimen in makeSpecimens() { try specimen.save() }
            let before = try rows(store, Specimen.schema)
            try store.save()
            let reopened = try FileAdapter(file: url, configuration: explicitSaves)
            let after = try rows(reopened, Specimen.schema)
            #expect(after == before)
            #expect(after.count == 4)
            // Bit-exact doubles and dates, not just equal ones.
            for (a, b) in zip(before, after) {
                for (x, y) in zip(a, b) {
                    if case .double(let p) = x, case .double(let q) = y { #expect(p.bitPattern == q.bitPattern) }
                    if case .date(let p) = x, case .date(let q) = y {
                        #expect(p.timeIntervalSinceReferenceDate.bitPattern == q.timeIntervalSinceReferenceDate.bitPattern)
                    }
                }
            }
        }
    }

    @Test func loadingReplacesContentsAndIDsContinue() throws {
        try withStoreFile { (store: FileAdapter, url: URL) throws in
            for title in ["a", "b", "c"] { try Jot.create(["title": .string(title)]) }
            try #require(try Jot.find(3)).delete()
            try store.save()
            try Jot.create(["title": "unsaved"])
            try store.load()
            try store.load()
            #expect(try Jot.all().map(\.title) == ["a", "b"])
            let next = try Jot.create(["title": "d"])
            #expect(next.id == 4, "the saved next id: 3 was deleted and is not reused; 4 was never saved")
        }
    }

    @Test func loadRunsNoHooksAndKeepsTimestamps() throws {
        try withStoreFile { (store: FileAdapter, url: URL) throws in
            let old = Date(timeIntervalSinceReferenceDate: 1000.5)
            try ModelClock.using({ old }) { _ = try Stamped.create(["title": "t"]) }
            try store.save()
            let runs = Stamped.hookRuns.withLock { $0 }
            let reopened = try FileAdapter(file: url, models: [Stamped.self], configuration: explicitSaves)
            let stamped = try #require(try Stamped.find(1, in: reopened))
            #expect(stamped.updated_at == old && stamped.created_at == old)
            #expect(Stamped.hookRuns.withLock { $0 } == runs)
        }
    }

    @Test func queriesAndRelationsWorkOnLoadedRows() throws {
        try withStoreFile { (store: FileAdapter, url: URL) throws in
            let pad = try Pad.create(["label": "home"])
            for k in 0..<20 { try Jot.create(["title": .string("jot \(k)"), "pad_id": .int(pad.id ?? 0)]) }
            try store.save()
            let reopened = try FileAdapter(file: url, configuration: explicitSaves)
            let (children, label, matching) = try ModelStore.using(reopened) {
                (try Pad.find(pad.id ?? 0)?.jots.count(), try Jot.where(\.title == "jot 7").first()?.load(\.pad)?.label,
                 try Jot.where("title").beginsWith("jot 1").count())
            }
            #expect(children == 20)
            #expect(label == "home")
            #expect(matching == 11)
        }
    }

    @Test func perModelFilesAreRememberedAndReplaceOnlyThatModel() throws {
        try withTemporaryDirectory { directory in
            let store = FileAdapter(configuration: explicitSaves)
            let jots = directory.appendingPathComponent("jots.archive")
            try ModelStore.using(store) {
                try Jot.deserialize(from: jots)          // missing: starts empty
                #expect(try Jot.count() == 0)
                try Jot.create(["title": "kept"])
                try Pad.create(["label": "untouched"])
                try Jot.serialize()                      // the remembered file
                try Jot.create(["title": "dropped"])
                try Jot.deserialize()
                #expect(try Jot.all().map(\.title) == ["kept"])
                #expect(try Pad.count() == 1)
                #expect(store.file(for: Jot.self) == jots)
                #expect(throws: ArchiveError.self) {
                    try Pad.deserialize(from: directory.appendingPathComponent("none"), ifMissing: .fail)
                }
                #expect(throws: StoreError.self) { try Pad.serialize() }
            }
            #expect(throws: StoreError.self) { try ModelStore.using(ArrayAdapter()) { try Jot.serialize(to: jots) } }
        }
    }

    @Test func tablesOfUnusedModelsAreKeptAndWrittenBack() throws {
        try withStoreFile { (store: FileAdapter, url: URL) throws in
            try Pad.create(["label": "p"])
            try Jot.create(["title": "j"])
            try store.save()
            let second = try FileAdapter(file: url, configuration: explicitSaves)
            try ModelStore.using(second) { try Pad.create(["label": "q"]) }   // Jot never touched
            try second.save()
            let third = try FileAdapter(file: url, configuration: explicitSaves)
            let (jots, pads) = try ModelStore.using(third) { (try Jot.all().map(\.title), try Pad.all().map(\.label)) }
            #expect(jots == ["j"])
            #expect(pads == ["p", "q"])
        }
    }

    @Test func savesAreOwnerOnlyAndKeepAnExistingFilesMode() throws {
        try withStoreFile { (store: FileAdapter, url: URL) throws in
            try Jot.create(["title": "x"])
            try store.save()
            let mode = { (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int) ?? -1 }
            #expect(try mode() == 0o600)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
            try store.save()
            #expect(try mode() == 0o644)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
            #expect(leftovers == ["store.archive"])
        }
    }
}
