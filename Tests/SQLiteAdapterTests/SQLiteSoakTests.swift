import SQLiteAdapter
import Foundation
import Testing
import TestSupport

/// Eight threads of transfers, rolled-back transfers, sums, full reads and writes by id
/// (`runTransferSoak`); CI runs it under Thread Sanitizer.
@Suite struct SQLiteSoakTests {
    @Test func eightThreadsOfTransfersKeepTheTotal() throws {
        try withTemporaryDirectory { directory in
            let store = try SQLiteAdapter(path: directory.appendingPathComponent("soak.sqlite").path)
            let report = try runTransferSoak(store, operationsPerThread: reliabilityRounds(250))
            #expect(report.problems.isEmpty, "\(report.problems.prefix(5))")
            #expect(report.transfers > 0 && report.sums > 0 && report.snapshots > 0)
            reportReliability("SQLiteAdapter soak: 8 threads, \(report)")
        }
    }
}
