// Generated from Docs/Testing.md by Scripts/doc-snippets.py: do not edit; edit the document and rerun.
// swift-format-ignore-file

import AdapterConformance
import ArrayAdapter
import FileAdapter
import Foundation
import SQLiteAdapter
import Testing

// Docs/Testing.md, snippet 2 (line 17)
@Suite struct TestingDoc_MyAdapterConformanceTests {
    static let suite = AdapterConformance(
        adapter: "MyAdapter",
        capabilities: [.persistence],                          // what your adapter can do
        reopen: { store in try MyAdapter(reopening: store) },  // for .persistence
        removeStore: { store in try MyAdapter.remove(store) },  // close it, delete its files
        makeStore: { try MyAdapter.temporary() })              // a fresh, empty store

    @Test(arguments: ConformanceGroup.allCases)
    func conformance(_ group: ConformanceGroup) async {
        let report = await Self.suite.run([group])
        for failure in report.failures { Issue.record(Comment(rawValue: failure.description)) }
        #expect(report.skipped.isEmpty, "\(report)")
    }
}

extension TestingDoc {
    /// Docs/Testing.md, snippet 2 (line 17).
    static func snippet2(_ context: Context) throws {
        _ = context

    }

    /// Docs/Testing.md, snippet 3 (line 107).
    static func snippet3(_ context: Context) throws {
        let store = try MyAdapter.temporary()
        defer { try? MyAdapter.remove(store) }
        let mismatches = try DifferentialRun(seed: 7).compare(["ArrayAdapter": ArrayAdapter(), "MyAdapter": store])
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
        show(store, mismatches)
    }
}

@Suite("Docs/Testing.md snippets") struct TestingDocSnippetTests {
    @Test func snippet2() throws { try privately { try TestingDoc.withContext { try TestingDoc.snippet2($0) } } }
    @Test func snippet3() throws { try privately { try TestingDoc.withContext { try TestingDoc.snippet3($0) } } }
}
