import FileAdapter
import Foundation
import Synchronization
import Testing
@_exported import TestSupport

/// Every column type, including the awkward values: Int64's extremes, unicode, nested
/// containers, fractional dates, nil.
final class Specimen: Model {
    @Column var name: String = ""
    @Column(options: .text) var notes: String = ""
    @Column var count: Int = 0
    @Column var big: Int64 = 0
    @Column var ratio: Double = 0
    @Column var flag: Bool = false
    @Column var seen: Date = Date(timeIntervalSinceReferenceDate: 0)
    @Column var serial: UUID = UUID()
    @Column var blob: Data = Data()
    @Column var tags: [String] = []
    @Column var extra: [String: ModelValue] = [:]
    @Column var maybe: String?
    @Column var when: Date?
    init() {}
}

/// A model with timestamps, hooks and a relation, for load behaviour.
final class Jot: Model {
    @Column var title: String = ""
    @Column var body: String?
    @Column var created_at: Date?
    @Column var updated_at: Date?
    @BelongsTo var pad: Pad?
    init() {}
}

/// Counts its save hooks (used by one test only, so the count is that test's).
final class Stamped: Model {
    @Column var title: String = ""
    @Column var created_at: Date?
    @Column var updated_at: Date?
    static let hookRuns = Mutex(0)
    func beforeSave() -> Bool {
        Stamped.hookRuns.withLock { $0 += 1 }
        return true
    }
    init() {}
}

final class Pad: Model {
    @Column var label: String = ""
    @HasMany var jots: Children<Jot>
    init() {}
}

/// Specimens whose values cover every case.
func makeSpecimens() -> [Specimen] {
    let values: [(String, Int64, Double, Date)] = [
        ("plain", .max, 0.1, Date(timeIntervalSinceReferenceDate: 123_456.789_012_345)),
        ("Ünïcødé 🐶 \u{0}nul", .min, -0.0, Date(timeIntervalSince1970: -1e9 + 0.25)),
        ("", 0, .greatestFiniteMagnitude, Date(timeIntervalSinceReferenceDate: 0.000_001)),
        (String(repeating: "long ", count: 400), 255, .leastNonzeroMagnitude, Date()),
    ]
    return values.enumerated().map { k, value in
        let specimen = Specimen()
        specimen.name = value.0
        specimen.notes = "line 1\nline 2 — \"quoted\" \\ ‹›"
        specimen.count = k * 65_536 - 3
        specimen.big = value.1
        specimen.ratio = value.2
        specimen.flag = k % 2 == 0
        specimen.seen = value.3
        specimen.serial = UUID()
        specimen.blob = Data((0..<(k * 40)).map { UInt8(truncatingIfNeeded: $0 &* 37) })
        specimen.tags = k == 0 ? [] : ["a", "ß", String(k)]
        specimen.extra = [
            "n": .int(Int64(k)), "nested": .array([.string("x"), .array([.double(2.5), .null]), .dictionary(["deep": .bool(true)])]),
            "when": .date(Date(timeIntervalSinceReferenceDate: 1.5)), "id": .uuid(UUID()), "raw": .data(Data([0, 255])),
            "none": .null,
        ]
        specimen.maybe = k % 2 == 0 ? nil : "some"
        specimen.when = k == 1 ? nil : value.3
        return specimen
    }
}

/// Options without autosave, for tests that decide when files are written.
var explicitSaves: FileAdapterOptions {
    var options = FileAdapterOptions()
    options.autosave = .never
    return options
}

/// A store file in a fresh directory, and a store opened on it (explicit saves).
@discardableResult
func withStoreFile<R>(_ body: (FileAdapter, URL) throws -> R) throws -> R {
    try withTemporaryDirectory { directory in
        let url = directory.appendingPathComponent("store.archive")
        let store = try FileAdapter(file: url, options: explicitSaves)
        return try ModelStore.using(store) { try body(store, url) }
    }
}

/// The rows a store holds for a model, in store order.
func rows(_ store: any PersistenceAdapter, _ schema: ModelSchema) throws -> [[ModelValue]] {
    try store.fetch(StoreQuery(schema: schema))
}

/// Runs a Python 3 script with `arguments` and returns what it prints.
func python(_ script: String, _ arguments: [String]) throws -> String {
    let result = try runTool("python3", ["-c", script] + arguments)
    #expect(result.status == 0, "python3 failed: \(result.output)")
    return result.output
}
