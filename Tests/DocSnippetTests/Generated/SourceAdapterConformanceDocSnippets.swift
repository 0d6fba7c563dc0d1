// Generated from the `///` comments of Sources/AdapterConformance by Scripts/doc-snippets.py: do not edit;
// edit the comments and rerun. Compiled, not run.
// swift-format-ignore-file

@testable import AdapterConformance
import ArrayAdapter
import FileAdapter
import Foundation
import PostgresAdapter
import RESTAdapter
import SQLiteAdapter
import Testing

enum SourceAdapterConformanceDoc {
    struct Context {}
}

extension SourceAdapterConformanceDoc {
    /// Sources/AdapterConformance/Differential/DifferentialRun.swift, snippet 1.
    static func DifferentialRun1(_ given: Context) throws {
        let mismatches = try DifferentialRun(seed: 7, rows: 60, queries: 250)
            .compare(["memory": ArrayAdapter(), "sqlite": try SQLiteAdapter()])
        #expect(mismatches.isEmpty, "\(mismatches)")
        show(mismatches)
    }
}
