@testable import CrashHelper
import Foundation
import PostgresAdapter
import TestSupport
import Testing

/// A client killed mid-transaction, 100 times: the server aborts its transaction, and the
/// tables hold a whole generation, never older than the side log's last acknowledgement.
@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipReason))
struct PostgresCrashTests {
    @Test func killingAClientMidTransactionKeepsTheLastAcknowledgedCommit() throws {
        let helper = try #require(crashHelper, "CrashHelper was not built")
        let url = try #require(PostgresTestServer.url)
        let rounds = reliabilityRounds(100)
        let configuration = PostgresTestServer.configuration()
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("postgres").path
            var kills = 0, inFlight = 0
            for round in 0..<rounds {
                let killed = try killCrashHelper(
                    helper, mode: "postgres", path: path, extraArguments: [url, configuration.schema ?? "public"]).killed
                #expect(killed, "round \(round): the helper exited by itself")
                if killed { kills += 1 }
                let acknowledged = SideLog.lastAcknowledged(at: path + ".acknowledged")
                let store = try PostgresAdapter(configuration)
                let generation = try checkWholeGeneration(store, round: round)
                #expect(generation == acknowledged || generation == acknowledged + 1, "round \(round): \(generation) after \(acknowledged)")
                if generation > acknowledged { inFlight += 1 }
                store.close()
            }
            reportReliability(
                "PostgreSQL client: \(kills) SIGKILLs mid-transaction, 0 acknowledged commits lost, 0 partial, "
                    + "\(inFlight) commits on the server before their acknowledgement")
        }
    }
}

/// The generation the crash tables hold, after checking it is whole.
func checkWholeGeneration(_ store: PostgresAdapter, round: Int) throws -> Int {
    let samples = try CrashSample.query(in: store).order(by: \.position).all()
    let generation = samples.first?.generation ?? 0
    #expect(samples.allSatisfy { $0.generation == generation }, "round \(round): a mix of transactions")
    if generation > 0 {
        #expect(samples.count == CrashSample.networkCount(generation), "round \(round): a partial transaction")
    }
    #expect(try CrashNote.all(in: store).map(\.generation) == (generation > 0 ? [generation] : []), "round \(round): notes")
    return generation
}
