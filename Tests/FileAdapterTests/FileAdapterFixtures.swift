@testable import AdapterConformance
import FileAdapter
import Foundation
import Testing
@_exported import TestSupport

/// Every column type: the conformance suite's sample model and its awkward values.
typealias Specimen = ConformanceSample

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
    static let hookRuns = Locked(0)
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

/// Specimens whose values cover every case (Int64 extremes, unicode, nested containers,
/// fractional dates, nil).
func makeSpecimens() -> [Specimen] { RecordChecks.samples() }

/// Options without autosave, for tests that decide when files are written.
var explicitSaves: FileAdapterConfiguration {
    var options = FileAdapterConfiguration()
    options.autosave = .never
    return options
}

/// A store file in a fresh directory, and a store opened on it (explicit saves).
@discardableResult
func withStoreFile<R>(_ body: (FileAdapter, URL) throws -> R) throws -> R {
    try withTemporaryDirectory { directory in
        let url = directory.appendingPathComponent("store.archive")
        let store = try FileAdapter(file: url, configuration: explicitSaves)
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
