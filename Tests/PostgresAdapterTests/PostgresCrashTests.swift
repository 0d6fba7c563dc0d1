@testable import CrashHelper
import Foundation
import PostgresAdapter
import TestSupport
import Testing

/// A client killed mid-transaction, 100 times: the server aborts its transaction, and the
/// tables hold a whole generation, never older than the side log's last acknowledgement.
@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipReason), .runsOffThePool)
struct PostgresCrashTests {
    @Test func killingAClientMidTransactionKeepsTheLastAcknowledgedCommit() async throws {
        let helper = try #require(crashHelper, "CrashHelper was not built")
        let url = try #require(PostgresTestServer.url)
        let configuration = PostgresTestServer.configuration()
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("postgres").path
            let (kills, inFlight) = try await runKillRounds(
                helper, mode: "postgres", path: path, extraArguments: [url, configuration.schema ?? "public"],
                rounds: reliabilityRounds(100)
            ) { round, _ in
                let store = try PostgresAdapter(configuration)
                defer { try? store.close() }
                return try checkWholeGeneration(store, round: round)
            }
            reportReliability(
                "PostgreSQL client: \(kills) SIGKILLs mid-transaction, 0 acknowledged commits lost, 0 partial, "
                    + "\(inFlight) commits on the server before their acknowledgement")
        }
    }
}

/// The generation the crash tables hold, after checking it is whole.
///
/// The two tables are read by separate statements, and the server may still be finishing
/// a `COMMIT` the killed client sent just before it died: the notes are read before and
/// after the samples, and the reads are repeated until no commit landed between them.
func checkWholeGeneration(_ store: PostgresAdapter, round: Int) throws -> Int {
    var attempts = 0
    while true {
        attempts += 1
        let notesBefore = try CrashNote.all(in: store).map(\.generation)
        let samples = try CrashSample.query(in: store).order(by: \.position).all()
        let notes = try CrashNote.all(in: store).map(\.generation)
        guard notes == notesBefore || attempts >= 50 else { continue }
        let generation = samples.first?.generation ?? 0
        #expect(samples.allSatisfy { $0.generation == generation }, "round \(round): a mix of transactions")
        if generation > 0 {
            #expect(samples.count == CrashSample.smallCount(generation), "round \(round): a partial transaction")
        }
        #expect(notes == (generation > 0 ? [generation] : []), "round \(round): notes \(notes), samples of \(generation)")
        return generation
    }
}
