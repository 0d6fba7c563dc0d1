import AdapterConformance
import FileAdapter
import Foundation
import Testing

/// FileAdapter runs the whole conformance suite; reopening closes the store (which writes
/// the store file) and opens the file in a new adapter.
@Suite struct FileAdapterConformanceTests {
    /// The suite on an archive at `file`, deleted once the group has run.
    static func suite(at file: URL) -> AdapterConformance {
        AdapterConformance(
            adapter: "FileAdapter", capabilities: [.persistence],
            reopen: { store in
                guard let store = store as? FileAdapter, let file = store.file else { throw StoreError(.invalidRequest, table: "*", message: "not a FileAdapter") }
                try store.close()
                return try FileAdapter(file: file, configuration: explicitSaves)
            },
            removeStore: { store in
                try store.close()
                if FileManager.default.fileExists(atPath: file.path) { try FileManager.default.removeItem(at: file) }
            },
            makeStore: { try FileAdapter(file: file, configuration: explicitSaves) })
    }

    @Test(arguments: ConformanceGroup.allCases) func conformance(_ group: ConformanceGroup) async {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("swiftmodel-conformance-\(UUID().uuidString).archive")
        let report = await Self.suite(at: file).run([group])
        for failure in report.failures { Issue.record(Comment(rawValue: failure.description)) }
        #expect(report.skipped.isEmpty && (report.checked[group] ?? 0) > 0, "\(report)")
        #expect(!FileManager.default.fileExists(atPath: file.path), "the group's archive is removed")
    }
}
