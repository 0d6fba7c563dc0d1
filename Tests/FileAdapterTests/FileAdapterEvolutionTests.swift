import FileAdapter
import Foundation
import Testing

/// Three versions of one model on the same table.
final class NoteV1: Model {
    static var tableName: String { "note" }
    @Column var title: String = ""
    @Column var hours: Int = 0
    @Column var obsolete: String = "gone"
    init() {}
}

final class NoteV2: Model {
    static var tableName: String { "note" }
    @Column var title: String = ""
    @Column var hours: Int = 0
    @Column var body: String = "(empty)"
    @Column(default: 3) var priority: Int?
    @Column var tags: [String] = ["new"]
    init() {}
}

final class NoteV3: Model {
    static var tableName: String { "note" }
    @Column var name: String = ""
    @Column var minutes: Int = 0
    @Column var body: String = "(empty)"
    init() {}
}

@Suite struct FileAdapterEvolutionTests {
    /// A store file holding two version-1 notes.
    private func versionOneFile(_ directory: URL) throws -> URL {
        let url = directory.appendingPathComponent("notes.archive")
        let store = try FileAdapter(file: url, configuration: explicitSaves)
        try NoteV1.create(["title": "a", "hours": 2], in: store)
        try NoteV1.create(["title": "b", "hours": 5], in: store)
        try store.save()
        return url
    }

    @Test func missingColumnsGetDefaultsAndExtraOnesAreDropped() throws {
        try withTemporaryDirectory { directory in
            let url = try versionOneFile(directory)
            let store = try FileAdapter(file: url, models: [NoteV2.self], configuration: explicitSaves)
            let notes = try NoteV2.all(in: store)
            #expect(notes.map(\.title) == ["a", "b"] && notes.map(\.hours) == [2, 5])
            #expect(notes.allSatisfy { $0.body == "(empty)" && $0.priority == 3 && $0.tags == ["new"] })
            try store.save()
            let columns = try python(
                "import plistlib, sys; p = plistlib.load(open(sys.argv[1], 'rb')); o = p['$objects']; "
                    + "t = o[o[o[p['$top']['root'].data]['tables'].data]['NS.objects'][0].data]; "
                    + "print(','.join(o[c.data] for c in o[t['columns'].data]['NS.objects']))",
                [url.path])
            #expect(columns == "id,title,hours,body,priority,tags\n")
        }
    }

    @Test func migrationsRunInOrderOnOlderFilesOnly() throws {
        try withTemporaryDirectory { directory in
            let url = try versionOneFile(directory)
            let store = try FileAdapter(file: url, configuration: explicitSaves)
            try store.register(
                NoteV3.self, version: 3,
                migrations: [
                    ArchiveMigration(to: 3) { record in
                        record["minutes"] = .int((record["hours"]?.intValue ?? 0) * 60)
                        record["body"] = .string("was " + (record["name"]?.stringValue ?? "?"))
                    },
                    ArchiveMigration(to: 2) { record in record.rename("title", to: "name") },
                ])
            let notes = try NoteV3.all(in: store)
            #expect(notes.map(\.name) == ["a", "b"])
            #expect(notes.map(\.minutes) == [120, 300])
            #expect(notes.map(\.body) == ["was a", "was b"])
            try store.save()
            // Saved as version 3: opening it again runs no step.
            let again = try FileAdapter(file: url, configuration: explicitSaves)
            try again.register(
                NoteV3.self, version: 3, migrations: [ArchiveMigration(to: 2) { _ in throw MigrationRefused() }])
            #expect(try NoteV3.all(in: again).map(\.minutes) == [120, 300])
        }
    }

    @Test func aFailingMigrationLoadsNothing() throws {
        try withTemporaryDirectory { directory in
            let url = try versionOneFile(directory)
            let store = FileAdapter(configuration: explicitSaves)
            try NoteV3.create(["name": "kept"], in: store)
            try store.register(NoteV3.self, version: 2, migrations: [ArchiveMigration(to: 2) { _ in throw MigrationRefused() }])
            let error = #expect(throws: ArchiveError.self) { try NoteV3.deserialize(from: url, in: store) }
            #expect(error?.kind == .migrationFailed && error?.message.contains("MigrationRefused") == true)
            #expect(try NoteV3.all(in: store).map(\.name) == ["kept"])
        }
    }

    @Test func newerFilesAndBadRegistrationsAreRefused() throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("v3.archive")
            let writer = FileAdapter(configuration: explicitSaves)
            try writer.register(NoteV3.self, version: 3)
            try NoteV3.create(["name": "future"], in: writer)
            try NoteV3.serialize(to: url, in: writer)
            let reader = FileAdapter(configuration: explicitSaves)
            let error = #expect(throws: ArchiveError.self) { try NoteV3.deserialize(from: url, in: reader) }
            #expect(error?.kind == .newerVersion)
            #expect(throws: StoreError.self) { try reader.register(NoteV3.self, version: 0) }
            #expect(throws: StoreError.self) {
                try reader.register(NoteV3.self, version: 2, migrations: [ArchiveMigration(to: 3) { _ in }])
            }
            #expect(throws: StoreError.self) {
                try reader.register(
                    NoteV3.self, version: 3, migrations: [ArchiveMigration(to: 2) { _ in }, ArchiveMigration(to: 2) { _ in }])
            }
        }
    }
}

struct MigrationRefused: Error {}
