@testable import AdapterConformance
import FileAdapter
import Foundation
import Testing

/// Damaged, foreign and ill-fitting files are typed errors that leave the store and the
/// file as they were.
@Suite struct FileAdapterCorruptionTests {
    /// Loads `bytes` as the store file into a store holding one jot; returns the error.
    private func loadFailure(_ bytes: [UInt8], _ store: FileAdapter, _ url: URL) throws -> ArchiveError? {
        try Data(bytes).write(to: url)
        let before = try rows(store, Jot.schema)
        do {
            try store.load()
            return nil
        } catch let error as ArchiveError {
            #expect(try rows(store, Jot.schema) == before, "a failed load changed the store")
            #expect(try Data(contentsOf: url) == Data(bytes), "a failed load changed the file")
            #expect(error.path == url.path)
            return error
        }
    }

    private func savedArchive() throws -> [UInt8] {
        try withStoreFile { (store: FileAdapter, url: URL) throws in
            for specimen in makeSpecimens() { try specimen.save() }
            try Jot.create(["title": "saved", "body": "Ünïcødé"])
            try store.save()
            return Array(try Data(contentsOf: url))
        }
    }

    @Test func everyTruncationIsATypedError() throws {
        let archive = try savedArchive()
        try withStoreFile { (store: FileAdapter, url: URL) throws in
            try Jot.create(["title": "in memory"])
            var kinds: Set<ArchiveError.Kind> = []
            for length in 0..<archive.count {
                let error = try loadFailure(Array(archive[..<length]), store, url)
                #expect(error != nil, "a file cut at \(length) of \(archive.count) bytes loaded")
                if let error { kinds.insert(error.kind) }
            }
            #expect(kinds.isSubset(of: [.truncated, .corrupt, .foreign]))
            #expect(kinds.contains(.truncated))
        }
    }

    @Test func damagedBytesAreDetectedAnywhere() throws {
        let archive = try savedArchive()
        var random = SystemRandomNumberGenerator()
        try withStoreFile { (store: FileAdapter, url: URL) throws in
            try Jot.create(["title": "in memory"])
            var kinds: Set<ArchiveError.Kind> = []
            var trials = 0
            while trials < 300 {
                var damaged = archive
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    // Anywhere but the trailer, whose fields are checked for consistency instead.
                    damaged[Int.random(in: 0..<damaged.count - 32, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
                }
                if damaged == archive { continue }
                trials += 1
                let error = try loadFailure(damaged, store, url)
                #expect(error != nil, "damaged bytes loaded")
                if let error { kinds.insert(error.kind) }
            }
            #expect(kinds.isSubset(of: [.truncated, .corrupt, .foreign]))
        }
    }

    @Test func archivesFromOtherWritersAreReadWithoutAChecksum() throws {
        var archive = try savedArchive()
        let trailer = archive.count - 32
        #expect(archive[trailer] == UInt8(ascii: "S"))
        for k in trailer..<trailer + 5 { archive[k] = 0 }
        try withStoreFile { (store: FileAdapter, url: URL) throws in
            try Data(archive).write(to: url)
            try store.load()
            #expect(try store.count(StoreQuery(schema: Specimen.schema)) == 4)
        }
    }

    @Test func foreignFilesAreRecognised() throws {
        try withStoreFile { (store: FileAdapter, url: URL) throws in
            try Jot.create(["title": "in memory"])
            let json = Array(#"{"jot": [{"id": 1}]}"#.utf8)
            #expect(try loadFailure(json, store, url)?.kind == .foreign)
            #expect(try loadFailure([], store, url)?.kind == .foreign)
            _ = try python(
                "import plistlib, sys; open(sys.argv[1], 'wb').write(plistlib.dumps({'a': [1, 2]}, fmt=plistlib.FMT_BINARY))",
                [url.path])
            let error = try loadFailure(Array(try Data(contentsOf: url)), store, url)
            #expect(error?.kind == .foreign || error?.kind == .corrupt)
        }
    }

    @Test func cyclesAndUnknownClassesAreErrors() throws {
        let craft = #"""
            import plistlib, sys
            U = plistlib.UID
            kind = sys.argv[1]
            value = {'cycle': U(9), 'class': U(10), 'string': U(14)}[kind]
            objs = ['$null',
              {'$class': U(2), 'format': 1, 'tables': U(3)},
              {'$classname': 'SwiftModelArchive', '$classes': ['SwiftModelArchive', 'NSObject']},
              {'$class': U(5), 'NS.objects': [U(4)]},
              {'$class': U(6), 'name': U(11), 'records': U(7)},
              {'$classname': 'NSArray', '$classes': ['NSArray', 'NSObject']},
              {'$classname': 'SwiftModelTable', '$classes': ['SwiftModelTable', 'NSObject']},
              {'$class': U(5), 'NS.objects': [U(8)]},
              {'$class': U(12), 'id': 1, 'title': U(11), 'body': value},
              {'$class': U(5), 'NS.objects': [U(9)]},
              {'$class': U(13)},
              'jot',
              {'$classname': 'Jot', '$classes': ['Jot', 'NSObject']},
              {'$classname': 'NSWindow', '$classes': ['NSWindow', 'NSObject']},
              {'$class': U(15), 'NS.string': U(14)},
              {'$classname': 'NSString', '$classes': ['NSString', 'NSObject']}]
            top = {'$archiver': 'NSKeyedArchiver', '$version': 100000, '$top': {'root': U(1)}, '$objects': objs}
            open(sys.argv[2], 'wb').write(plistlib.dumps(top, fmt=plistlib.FMT_BINARY))
            """#
        try withStoreFile { (store: FileAdapter, url: URL) throws in
            _ = try python(craft, ["cycle", url.path])
            let cycle = #expect(throws: ArchiveError.self) { try store.load() }
            #expect(cycle?.kind == .corrupt && cycle?.message.contains("deeper") == true)
            _ = try python(craft, ["class", url.path])
            let unknown = #expect(throws: ArchiveError.self) { try store.load() }
            #expect(unknown?.kind == .unsupported && unknown?.message.contains("NSWindow") == true)
            // Found by FuzzArchiveReader: a string whose NS.string is itself overflowed the stack.
            _ = try python(craft, ["string", url.path])
            let selfString = #expect(throws: ArchiveError.self) { try store.load() }
            #expect(selfString?.kind == .corrupt && selfString?.message.contains("deeper") == true)
        }
    }

    @Test func missingFilesFollowThePolicy() throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("absent.archive")
            let store = try FileAdapter(file: url, configuration: explicitSaves)
            #expect(try store.count(StoreQuery(schema: Jot.schema)) == 0)
            let error = #expect(throws: ArchiveError.self) { try store.load(ifMissing: .fail) }
            #expect(error?.kind == .missingFile)
            #expect(!FileManager.default.fileExists(atPath: url.path))
        }
    }

    @Test func valuesThatDoNotFitNameTheColumn() throws {
        try withStoreFile { (store: FileAdapter, url: URL) throws in
            try Jot.create(["title": "not a number"])
            try store.save()
            let strict = try FileAdapter(file: url.deletingLastPathComponent().appendingPathComponent("other"), configuration: explicitSaves)
            let error = #expect(throws: ArchiveError.self) { try NumberedJot.deserialize(from: url, in: strict) }
            #expect(error?.kind == .invalidValue && error?.column == "title" && error?.table == "jots")
            #expect(error?.description.contains("not a number") == true)
        }
    }

    /// Writes a keyed archive holding one `jots` table, as another tool could write it.
    /// `records` is a Python list of record dictionaries, in which `text(s)` is an
    /// `NSString` and `date(t)` an `NSDate` of `float(t)` seconds.
    private func craftJots(_ records: String, at url: URL) throws {
        let craft = #"""
            import plistlib, sys
            U = plistlib.UID
            objs = ['$null']
            def add(o):
                objs.append(o)
                return U(len(objs) - 1)
            def cls(name): return add({'$classname': name, '$classes': [name, 'NSObject']})
            def text(s): return add(s)
            def date(t): return add({'$class': cls('NSDate'), 'NS.time': float(t)})
            array, jot = cls('NSArray'), cls('Jot')
            records = [add(dict({'$class': jot}, **r)) for r in eval(sys.argv[1])]
            table = add({'$class': cls('SwiftModelTable'), 'name': text('jots'),
                         'records': add({'$class': array, 'NS.objects': records})})
            root = add({'$class': cls('SwiftModelArchive'), 'format': 1,
                        'tables': add({'$class': array, 'NS.objects': [table]})})
            top = {'$archiver': 'NSKeyedArchiver', '$version': 100000, '$top': {'root': root}, '$objects': objs}
            open(sys.argv[2], 'wb').write(plistlib.dumps(top, fmt=plistlib.FMT_BINARY))
            """#
        _ = try python(craft, [records, url.path])
    }

    /// Loads `url` per model into a store holding one jot: the load must fail and leave
    /// that jot alone. Returns the error.
    private func perModelLoadFailure(_ url: URL) throws -> ArchiveError? {
        let store = FileAdapter(configuration: explicitSaves)
        let kept = Jot()
        kept.title = "kept"
        try kept.save(to: store)
        let error = #expect(throws: ArchiveError.self) { try store.load(Jot.self, from: url) }
        #expect(try Jot.query(in: store).all().map(\.title) == ["kept"])
        return error
    }

    /// Found by `FuzzArchiveReader`: an `NSDate` whose time is NaN loaded, and the store
    /// then refused the row with a `CastError`. Values no adapter stores are refused on
    /// load as on save, as ``ArchiveError/Kind/invalidValue`` naming the column.
    @Test(arguments: ["nan", "inf", "-inf", "1e300", "-1e300"])
    func unstorableDatesAreInvalidValues(time: String) throws {
        try withStoreFile { (store: FileAdapter, url: URL) throws in
            try craftJots("[{'id': 1, 'title': text('x'), 'created_at': date('\(time)')}]", at: url)
            let error = try perModelLoadFailure(url)
            #expect(error?.kind == .invalidValue && error?.table == "jots" && error?.column == "created_at")
            #expect(error?.message.contains("dateRange") == true, "\(String(describing: error))")
            // Store file: a table is converted when its model is first used, and fails then.
            try store.load()
            let deferred = #expect(throws: ArchiveError.self) { try Jot.query(in: store).count() }
            #expect(deferred?.kind == .invalidValue && deferred?.column == "created_at" && deferred?.path == url.path)
        }
    }

    /// Found by `FuzzArchiveReader`: a file repeating an id (a damaged one, or another
    /// tool's) reached the store, which refused it with a `StoreError`. It is an
    /// ``ArchiveError`` `.invalidValue` naming the id column, and nothing changes.
    @Test func repeatedIDsAreInvalidValues() throws {
        try withStoreFile { (_: FileAdapter, url: URL) throws in
            try craftJots("[{'id': 7, 'title': text('first')}, {'id': 7, 'title': text('again')}]", at: url)
            let error = try perModelLoadFailure(url)
            #expect(error?.kind == .invalidValue && error?.table == "jots" && error?.column == "id")
            #expect(error?.message.contains("two records share the id 7") == true, "\(String(describing: error))")
            // Store file, model registered up front: opening it fails.
            let registered = #expect(throws: ArchiveError.self) {
                let opened = try FileAdapter(file: url, models: [Jot.self], configuration: explicitSaves)
                _ = try Jot.query(in: opened).count()
            }
            #expect(registered?.kind == .invalidValue && registered?.column == "id" && registered?.path == url.path)
        }
    }

    @Test func unwritableDirectoriesKeepTheOldFile() throws {
        guard getuid() != 0 else { return }  // root ignores permissions
        try withStoreFile { (store: FileAdapter, url: URL) throws in
            try Jot.create(["title": "first"])
            try store.save()
            let saved = try Data(contentsOf: url)
            let directory = url.deletingLastPathComponent().path
            try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: directory)
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory) }
            try Jot.create(["title": "second"])
            let error = #expect(throws: ArchiveError.self) { try store.save() }
            #expect(error?.kind == .io)
            #expect(try Data(contentsOf: url) == saved)
        }
    }
}

/// The jot table read with an integer title: stored strings do not fit.
final class NumberedJot: Model {
    static var tableName: String { "jots" }
    @Column var title: Int = 0
    init() {}
}
