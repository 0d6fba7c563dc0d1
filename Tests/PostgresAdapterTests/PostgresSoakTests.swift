import Foundation
import PostgresAdapter
import Testing
import TestSupport

/// Eight threads of transfers, rolled-back transfers, sums, full reads and writes by id
/// (`runTransferSoak`), under `SERIALIZABLE` isolation: conflicts are retried.
@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipReason))
struct PostgresSoakTests {
    @Test func eightThreadsOfTransfersKeepTheTotal() throws {
        let store = try PostgresTestServer.store { $0.isolation = .serializable }
        let report = try runTransferSoak(store, operationsPerThread: reliabilityRounds(100)) { error in
            (error as? PostgresError)?.kind == .transactionConflict
        }
        #expect(report.problems.isEmpty, "\(report.problems.prefix(5))")
        #expect(report.transfers > 0 && report.sums > 0 && report.snapshots > 0)
        reportReliability("PostgresAdapter soak (serializable): 8 threads, \(report)")
    }
}
