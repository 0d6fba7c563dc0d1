@testable import AdapterConformance
import FileAdapter
import Foundation
import Testing

/// Archives are standard files: Python's plistlib and Foundation's NSKeyedUnarchiver read
/// ours, and we read Foundation's NSKeyedArchiver output.
@Suite struct FileAdapterInteropTests {
    /// Walks the keyed archive by hand in Python and prints each record in canonical form.
    static let pythonReader = #"""
        import plistlib, struct, sys
        p = plistlib.load(open(sys.argv[1], 'rb'))
        print('archiver', p['$archiver'], p['$version'])
        objs = p['$objects']
        assert objs[0] == '$null'
        def cls(o): return objs[o['$class'].data]['$classname']
        def canon(v):
            if isinstance(v, plistlib.UID):
                if v.data == 0: return 'null'
                v = objs[v.data]
            if isinstance(v, bool): return 'true' if v else 'false'
            if isinstance(v, int): return str(v)
            if isinstance(v, float): return 'f' + struct.pack('>d', v).hex()
            if isinstance(v, str): return 's' + v.encode('utf-8').hex()
            if isinstance(v, bytes): return 'b' + v.hex()
            c = cls(v)
            if c == 'NSNull': return 'null'
            if c == 'NSDate': return 'd' + struct.pack('>d', v['NS.time']).hex()
            if c == 'NSUUID': return 'u' + v['NS.uuidbytes'].hex()
            if c == 'NSArray': return '[' + ','.join(canon(x) for x in v['NS.objects']) + ']'
            if c == 'NSDictionary':
                pairs = sorted((canon(k), canon(x)) for k, x in zip(v['NS.keys'], v['NS.objects']))
                return '{' + ','.join(k + ':' + x for k, x in pairs) + '}'
            raise Exception('unexpected class ' + c)
        root = objs[p['$top']['root'].data]
        print('root', cls(root), root['format'])
        for t in objs[root['tables'].data]['NS.objects']:
            table = objs[t.data]
            columns = [objs[c.data] for c in objs[table['columns'].data]['NS.objects']]
            records = [objs[r.data] for r in objs[table['records'].data]['NS.objects']]
            print('table', objs[table['name'].data], table['schemaVersion'], table['nextID'], len(records))
            for r in records:
                print(cls(r), ' '.join(c + '=' + canon(r[c]) for c in columns))
        """#

    /// The same canonical form, from Swift values.
    static func canonical(_ value: ModelValue) -> String {
        func hex<S: Sequence<UInt8>>(_ bytes: S) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        func bits(_ d: Double) -> String { String(format: "%016llx", d.bitPattern) }
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d): return "f" + bits(d)
        case .string(let s): return "s" + hex(s.utf8)
        case .data(let d): return "b" + hex(d)
        case .date(let d): return "d" + bits(d.timeIntervalSinceReferenceDate)
        case .uuid(let u): return "u" + hex(withUnsafeBytes(of: u.uuid) { Array($0) })
        case .array(let a): return "[" + a.map(canonical).joined(separator: ",") + "]"
        case .dictionary(let d):
            let pairs = d.map { (canonical(.string($0.key)), canonical($0.value)) }.sorted { $0 < $1 }
            return "{" + pairs.map { $0.0 + ":" + $0.1 }.joined(separator: ",") + "}"
        }
    }

    @Test func pythonPlistlibReadsTheArchive() throws {
        try withStoreFile { (store: FileAdapter, url: URL) throws in
            for specimen in makeSpecimens() { try specimen.save() }
            try Jot.create(["title": "second table"])
            try store.save()
            let output = try python(Self.pythonReader, [url.path])
            var expected = ["archiver NSKeyedArchiver 100000", "root SwiftModelArchive 1", "table conformance_samples 1 5 4"]
            for row in try rows(store, Specimen.schema) {
                expected.append("ConformanceSample " + zip(Specimen.schema.columnNames, row).map { "\($0)=\(Self.canonical($1))" }.joined(separator: " "))
            }
            expected.append("table jots 1 2 1")
            expected.append("Jot " + zip(Jot.schema.columnNames, try rows(store, Jot.schema)[0]).map { "\($0)=\(Self.canonical($1))" }.joined(separator: " "))
            let lines = output.split(separator: "\n").map(String.init)
            #expect(lines.count == expected.count, "\(lines.count) lines, expected \(expected.count)")
            for (k, (line, wanted)) in zip(lines, expected).enumerated() where line != wanted {
                Issue.record("line \(k) differs: \(line.prefix(300)) … expected \(wanted.prefix(300)) …")
            }

        }
    }

    @Test func foundationUnarchivesOurArchive() throws {
        try withStoreFile { (store: FileAdapter, url: URL) throws in
            let specimens = makeSpecimens()
            for specimen in specimens { try specimen.save() }
            try store.save()
            let unarchiver = try NSKeyedUnarchiver(forReadingFrom: try Data(contentsOf: url))
            unarchiver.setClass(ArchiveBox.self, forClassName: "SwiftModelArchive")
            unarchiver.setClass(TableBox.self, forClassName: "SwiftModelTable")
            unarchiver.setClass(SpecimenBox.self, forClassName: "ConformanceSample")
            let archive = try #require(unarchiver.decodeObject(of: ArchiveBox.self, forKey: NSKeyedArchiveRootObjectKey))
            #expect(unarchiver.error == nil)
            #expect(archive.format == 1)
            let table = try #require(archive.tables.first)
            #expect(table.name == "conformance_samples" && table.model == "ConformanceSample" && table.schemaVersion == 1 && table.nextID == 5)
            #expect(table.columns == Specimen.schema.columnNames)
            let boxes = table.records.compactMap { $0 as? SpecimenBox }
            #expect(boxes.count == specimens.count)
            for (box, specimen) in zip(boxes, specimens) {
                #expect(box.id == specimen.id)
                #expect(box.name == specimen.name && box.notes == specimen.notes)
                #expect(box.count == Int64(specimen.count) && box.big == specimen.big)
                #expect(box.ratio.bitPattern == specimen.ratio.bitPattern && box.flag == specimen.flag)
                #expect(box.seen == specimen.seen && box.when == specimen.when)
                #expect(box.serial == specimen.serial && box.blob == specimen.blob)
                #expect(box.tags == specimen.tags && box.maybe == specimen.maybe)
                #expect(box.extraKeys == specimen.extra.keys.sorted())
                #expect(box.nested?.count == 3)
            }
        }
    }

    @Test func foundationArchivesLoadIntoTheStore() throws {
        let created = Date(timeIntervalSinceReferenceDate: 700_000_000.125)
        let jots = [JotBox(id: 1, title: "from Foundation", body: nil, created: created),
                    JotBox(id: 7, title: "Ünïcødé", body: "text", created: nil)]
        try withStoreFile { (store: FileAdapter, url: URL) throws in
            // A whole-store archive with SwiftModel's layout.
            // Class names stay Foundation's own (`FileAdapterTests.ArchiveBox`): objects are
            // recognised by their keys.
            let archiver = NSKeyedArchiver(requiringSecureCoding: true)
            let table = TableBox(name: "jots", model: "Jot", columns: ["id", "title", "body", "created_at"], records: jots)
            archiver.encode(ArchiveBox(tables: [table]), forKey: NSKeyedArchiveRootObjectKey)
            archiver.finishEncoding()
            try archiver.encodedData.write(to: url)
            try store.load()
            let loaded = try Jot.all()
            #expect(loaded.map(\.id) == [1, 7])
            #expect(loaded.map(\.title) == ["from Foundation", "Ünïcødé"])
            #expect(loaded.map(\.body) == [nil, "text"])
            #expect(loaded.map(\.created_at) == [created, nil])
            #expect(try Jot.create(["title": "next"]).id == 8)

            // A bare array of records, as MotionModel wrote them, per model.
            let bare = NSKeyedArchiver(requiringSecureCoding: true)
            bare.encode(jots as NSArray, forKey: NSKeyedArchiveRootObjectKey)
            bare.finishEncoding()
            let bareURL = url.deletingLastPathComponent().appendingPathComponent("jots.plist")
            try bare.encodedData.write(to: bareURL)
            try Jot.deserialize(from: bareURL)
            #expect(try Jot.all().map(\.title) == ["from Foundation", "Ünïcødé"])
        }
    }
}

// MARK: - Foundation classes matching the archive layout

final class ArchiveBox: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let format: Int64
    let tables: [TableBox]
    init(tables: [TableBox]) {
        self.format = 1
        self.tables = tables
    }
    init?(coder: NSCoder) {
        format = coder.decodeInt64(forKey: "format")
        tables = coder.decodeObject(of: [NSArray.self, TableBox.self], forKey: "tables") as? [TableBox] ?? []
    }
    func encode(with coder: NSCoder) {
        coder.encode(format, forKey: "format")
        coder.encode(tables as NSArray, forKey: "tables")
    }
}

final class TableBox: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let name: String, model: String, schemaVersion: Int64, nextID: Int64
    let columns: [String]
    let records: [NSObject]
    init(name: String, model: String, columns: [String], records: [NSObject]) {
        (self.name, self.model, self.schemaVersion, self.nextID) = (name, model, 1, 0)
        (self.columns, self.records) = (columns, records)
    }
    init?(coder: NSCoder) {
        name = coder.decodeObject(of: NSString.self, forKey: "name") as String? ?? ""
        model = coder.decodeObject(of: NSString.self, forKey: "model") as String? ?? ""
        schemaVersion = coder.decodeInt64(forKey: "schemaVersion")
        nextID = coder.decodeInt64(forKey: "nextID")
        columns = coder.decodeObject(of: [NSArray.self, NSString.self], forKey: "columns") as? [String] ?? []
        records = coder.decodeObject(of: [NSArray.self, SpecimenBox.self, JotBox.self], forKey: "records") as? [NSObject] ?? []
    }
    func encode(with coder: NSCoder) {
        coder.encode(name as NSString, forKey: "name")
        coder.encode(model as NSString, forKey: "model")
        coder.encode(schemaVersion, forKey: "schemaVersion")
        coder.encode(columns as NSArray, forKey: "columns")
        coder.encode(records as NSArray, forKey: "records")
    }
}

final class SpecimenBox: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    var id: Int64 = 0, name = "", notes = "", count: Int64 = 0, big: Int64 = 0, ratio = 0.0, flag = false
    var seen: Date?, when: Date?, serial: UUID?, blob: Data?, tags: [String]?, maybe: String?
    var extraKeys: [String] = [], nested: [Any]?
    init?(coder: NSCoder) {
        id = coder.decodeInt64(forKey: "id")
        name = coder.decodeObject(of: NSString.self, forKey: "name") as String? ?? "?"
        notes = coder.decodeObject(of: NSString.self, forKey: "notes") as String? ?? "?"
        count = coder.decodeInt64(forKey: "count")
        big = coder.decodeInt64(forKey: "big")
        ratio = coder.decodeDouble(forKey: "ratio")
        flag = coder.decodeBool(forKey: "flag")
        seen = coder.decodeObject(of: NSDate.self, forKey: "seen").map { Date(timeIntervalSinceReferenceDate: $0.timeIntervalSinceReferenceDate) }
        when = coder.decodeObject(of: NSDate.self, forKey: "when").map { Date(timeIntervalSinceReferenceDate: $0.timeIntervalSinceReferenceDate) }
        serial = coder.decodeObject(of: NSUUID.self, forKey: "serial").map { UUID(uuidString: $0.uuidString) } ?? nil
        blob = coder.decodeObject(of: NSData.self, forKey: "blob").map { Data(referencing: $0) }
        tags = coder.decodeObject(of: [NSArray.self, NSString.self], forKey: "tags") as? [String]
        maybe = coder.decodeObject(of: NSString.self, forKey: "maybe") as String?
        let classes: [AnyClass] = [NSDictionary.self, NSArray.self, NSString.self, NSNumber.self, NSDate.self, NSUUID.self, NSData.self, NSNull.self]
        let extra = coder.decodeObject(of: classes, forKey: "extra") as? NSDictionary
        extraKeys = (extra?.allKeys.compactMap { $0 as? String } ?? []).sorted()
        nested = (extra?["nested"] as? NSArray).map { Array($0) }
    }
    func encode(with coder: NSCoder) {}
}

final class JotBox: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let id: Int64, title: String, body: String?, created: Date?
    init(id: Int64, title: String, body: String?, created: Date?) {
        (self.id, self.title, self.body, self.created) = (id, title, body, created)
    }
    init?(coder: NSCoder) { return nil }
    func encode(with coder: NSCoder) {
        coder.encode(id, forKey: "id")
        coder.encode(title as NSString, forKey: "title")
        if let body { coder.encode(body as NSString, forKey: "body") } else { coder.encode(nil as Any?, forKey: "body") }
        if let created {
            coder.encode(NSDate(timeIntervalSinceReferenceDate: created.timeIntervalSinceReferenceDate), forKey: "created_at")
        }
    }
}
