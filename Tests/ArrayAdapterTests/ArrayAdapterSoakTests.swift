import ArrayAdapter
import Foundation
import Testing
import TestSupport

/// Eight threads of transfers, rolled-back transfers, sums, full reads and writes by id
/// (`runTransferSoak`); CI runs it under Thread Sanitizer.
@Suite struct ArrayAdapterSoakTests {
    @Test func eightThreadsOfTransfersKeepTheTotal() throws {
        try withTemporaryDirectory { directory in
            let store = ArrayAdapter()
            let report = try runTransferSoak(store, operationsPerThread: reliabilityRounds(250))
            #expect(report.problems.isEmpty, "\(report.problems.prefix(5))")
            #expect(report.transfers > 0 && report.sums > 0 && report.snapshots > 0)
            reportReliability("ArrayAdapter soak: 8 threads, \(report)")
        }
    }
}
