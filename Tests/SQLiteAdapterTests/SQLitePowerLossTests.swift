@testable import CrashHelper
import Foundation
import PowerCutVFS
import SQLiteAdapter
import Testing

/// Simulated power cuts (``PowerCutVFS``): at a random write or sync, the writes not yet
/// synced are kept, lost or torn, and the process dies with the machine. Reopening must
/// give exactly what the durability setting promises (`Docs/SQLite.md`, "Durability").
@Suite struct SQLitePowerLossTests {
    struct Setting: Sendable, CustomTestStringConvertible {
        let journalMode: SQLiteConfiguration.JournalMode
        let synchronous: SQLiteConfiguration.Synchronous
        /// Whether every acknowledged commit must survive.
        var keepsAcknowledgedCommits: Bool { synchronous == .full }
        var testDescription: String { "\(journalMode.rawValue)+\(synchronous.rawValue)" }
    }

    static let settings: [Setting] = [
        Setting(journalMode: .wal, synchronous: .full), Setting(journalMode: .wal, synchronous: .normal),
        Setting(journalMode: .delete, synchronous: .full), Setting(journalMode: .delete, synchronous: .normal),
    ]

    @Test(arguments: settings) func powerCutsKeepWhatTheSettingPromises(_ setting: Setting) throws {
        let cuts = reliabilityRounds(100)
        let name = "powercut-\(setting.testDescription)-\(UUID().uuidString)"
        let seed = UInt64.random(in: 1...UInt64.max)
        let vfs = try #require(powercut_vfs_register(name, seed), "the VFS did not register")
        defer { powercut_vfs_unregister(vfs) }
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("power.sqlite").path
            var configuration = SQLiteConfiguration()
            configuration.journalMode = setting.journalMode
            configuration.synchronous = setting.synchronous
            configuration.readerCount = 1
            var durable = 0, lostRounds = 0, lostCommits = 0, tornWrites = 0, undoneWrites = 0, powerCuts = 0
            for round in 0..<cuts {
                powercut_vfs_reset(vfs)
                powercut_vfs_arm(vfs, Int64.random(in: 0...400))
                var acknowledged = durable
                var cutting = configuration
                cutting.vfs = name
                do {
                    let store = try SQLiteAdapter(path: path, configuration: cutting)
                    defer { try? store.close() }
                    if setting.journalMode == .wal { try store.execute("PRAGMA wal_autocheckpoint = 8") }
                    for generation in (durable + 1)...(durable + 60) {
                        try CrashSample.replaceGeneration(generation, count: CrashSample.smallCount(generation), in: store)
                        acknowledged = generation
                    }
                } catch is SQLiteError {
                    // The cut: every later I/O fails, as in a dead process.
                } catch {
                    Issue.record("round \(round): an untyped error after the cut: \(type(of: error)) \(error)")
                }
                let statistics = powercut_vfs_statistics(vfs)
                if statistics.cut != 0 { powerCuts += 1 }
                tornWrites += Int(statistics.torn)
                undoneWrites += Int(statistics.undone)

                let store = try SQLiteAdapter(path: path, configuration: configuration)
                #expect(try store.rows("PRAGMA integrity_check").first?[0] == "ok", "round \(round): corrupt")
                let samples = try CrashSample.query(in: store).order(by: \.position).all()
                let generation = samples.first?.generation ?? 0
                #expect(samples.allSatisfy { $0.generation == generation }, "round \(round): a mix of transactions")
                if generation > 0 {
                    #expect(samples.count == CrashSample.smallCount(generation), "round \(round): a partial transaction")
                }
                #expect(generation <= acknowledged + 1, "round \(round): \(generation) after \(acknowledged)")
                #expect(generation >= durable, "round \(round): older than the last durable state \(durable)")
                if generation < acknowledged {
                    lostRounds += 1
                    lostCommits += acknowledged - generation
                }
                if setting.keepsAcknowledgedCommits {
                    #expect(generation >= acknowledged, "round \(round): lost acknowledged commit \(acknowledged)")
                }
                durable = generation
                try store.close()
            }
            #expect(powerCuts >= cuts * 9 / 10, "only \(powerCuts) of \(cuts) rounds reached their cut")
            reportReliability(
                "SQLite \(setting.testDescription): \(powerCuts) power cuts, \(tornWrites) torn and \(undoneWrites) lost unsynced writes, "
                    + "0 corrupt, 0 partial, \(lostCommits) acknowledged commits lost in \(lostRounds) cuts")
        }
    }

    /// `SQLiteConfiguration.vfs` names the VFS; an unknown name is a typed error naming it.
    @Test func anUnknownVFSIsATypedError() throws {
        try withTemporaryDirectory { directory in
            var configuration = SQLiteConfiguration()
            configuration.vfs = "no-such-vfs"
            let path = directory.appendingPathComponent("never.sqlite").path
            let error = try #require(throws: SQLiteError.self) { try SQLiteAdapter(path: path, configuration: configuration) }
            #expect(error.message.contains("no-such-vfs"), "\(error)")
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }
}
