@testable import CrashHelper
import Foundation
import SQLiteAdapter
import Testing

@Suite struct SQLiteCrashTests {
    /// Kills a process in the middle of its transactions, 100 times per journal mode:
    /// reopening gives a whole transaction, never older than the last one the side log
    /// acknowledged, and a database that passes `PRAGMA integrity_check`.
    @Test(arguments: ["sqlite-wal", "sqlite-delete"]) func killingAWriterKeepsTheLastAcknowledgedCommit(_ mode: String) async throws {
        let helper = try #require(crashHelper, "CrashHelper was not built")
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("crash.sqlite").path
            let (kills, inFlight) = try await runKillRounds(helper, mode: mode, path: path, rounds: reliabilityRounds(100)) { round, _ in
                var configuration = SQLiteConfiguration()
                configuration.journalMode = mode == "sqlite-wal" ? .wal : .delete
                let store = try SQLiteAdapter(path: path, configuration: configuration)
                defer { try? store.close() }
                let samples = try CrashSample.query(in: store).order(by: \.position).all()
                let generation = try #require(samples.first?.generation, "round \(round): empty")
                #expect(samples.allSatisfy { $0.generation == generation }, "round \(round): a mix of transactions")
                #expect(samples.count == CrashSample.expectedCount(generation), "round \(round): a partial transaction")
                #expect(try CrashNote.all(in: store).map(\.generation) == [generation], "round \(round): notes")
                #expect(try store.rows("PRAGMA integrity_check").first?[0] == "ok")
                return generation
            }
            reportReliability(
                "SQLite \(mode): \(kills) SIGKILLs, 0 acknowledged commits lost, 0 partial, 0 corrupt, "
                    + "\(inFlight) commits on disk before their acknowledgement")
        }
    }
}
