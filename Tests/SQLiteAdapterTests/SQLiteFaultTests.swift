@testable import CrashHelper
import Foundation
import SQLiteAdapter
import Testing

/// Damaged database files.
@Suite struct SQLiteFaultTests {
    /// Reads everything a damaged file lets through; every failure must be a typed error.
    private func exercise(_ path: String, _ journalMode: SQLiteConfiguration.JournalMode) -> String? {
        do {
            var configuration = SQLiteConfiguration()
            configuration.journalMode = journalMode
            configuration.readerCount = 1
            let store = try SQLiteAdapter(path: path, configuration: configuration)
            defer { try? store.close() }
            _ = try Citizen.query(in: store).all()
            _ = try Citizen.where(\.city == "Paris").using(store).count()
            _ = try Citizen.query(in: store).order(by: \.score).limit(3).sum("score")
            _ = try Citizen.find(2, in: store)
            try Citizen.create(["name": "after"], in: store)
            return nil
        } catch let error as SQLiteError {
            return "sqlite \(error.kind)"
        } catch let error as StoreError {
            return "store \(error.kind)"
        } catch let error as ModelError {
            return "model \(error.kind)"
        } catch let error as CastError {
            return "cast \(error.reason)"
        } catch let error as InvalidStoredValue {
            return "stored value \(error.column)"
        } catch {
            Issue.record("an untyped error: \(type(of: error)) \(error)")
            return "untyped"
        }
    }

    /// A database holding half the rows, its write-ahead log holding the other half (not
    /// checkpointed) and its shared-memory index, copied while the writer is open.
    private func pristineFiles(_ directory: URL) throws -> [String: [UInt8]] {
        let path = directory.appendingPathComponent("good.sqlite").path
        var configuration = SQLiteConfiguration()
        configuration.readerCount = 1
        let store = try SQLiteAdapter(path: path, configuration: configuration)
        try seedCitizens(store)
        for k in 300..<600 { try Citizen.create(["name": .string("filler \(k) " + String(repeating: "y", count: k % 50))], in: store) }
        _ = try store.rows("PRAGMA wal_checkpoint(TRUNCATE)")
        try store.execute("PRAGMA wal_autocheckpoint = 0")
        for k in 0..<300 { try Citizen.create(["name": .string("filler \(k) " + String(repeating: "z", count: k % 50))], in: store) }
        var files: [String: [UInt8]] = [:]
        for suffix in ["", "-wal", "-shm"] {
            files[suffix] = Array(try Data(contentsOf: URL(fileURLWithPath: path + suffix)))
        }
        try store.close()
        return files
    }

    /// 500 damaged versions of each file of a WAL database (`Damage`: flips, truncations,
    /// zeroed blocks, appended garbage, empty, a directory): no crash, no hang, and every
    /// failure a typed error. (SQLite has no page checksums: some damage to the database
    /// file reads as different data; damaged log frames fail their checksums and are
    /// ignored, so they lose the rows they held.)
    @Test(arguments: ["database", "-wal", "-shm"]) func damagedFilesGiveTypedErrorsNeverCrashes(_ file: String) throws {
        try withTemporaryDirectory { directory in
            let pristine = try pristineFiles(directory)
            let suffix = file == "database" ? "" : file
            let original = try #require(pristine[suffix])
            var outcomes: [String: Int] = [:]
            let variants = damagedVariants(of: original, count: reliabilityRounds(500))
            for (index, (name, damage)) in variants.enumerated() {
                let case_ = directory.appendingPathComponent("case\(index)")
                try FileManager.default.createDirectory(at: case_, withIntermediateDirectories: false)
                let path = case_.appendingPathComponent("damaged.sqlite").path
                for (other, bytes) in pristine where other != suffix {
                    try Damage.bytes(bytes).place(at: URL(fileURLWithPath: path + other))
                }
                try damage.place(at: URL(fileURLWithPath: path + suffix))
                let started = ContinuousClock.now
                outcomes[exercise(path, .wal) ?? "read fine", default: 0] += 1
                #expect(ContinuousClock.now - started < .seconds(10), "\(file) \(name): took too long")
                try? FileManager.default.removeItem(at: case_)
            }
            #expect(outcomes["untyped"] == nil)
            #expect(variants.count >= 500)
            reportReliability("SQLite damaged \(file): \(variants.count) variants, 0 crashes, 0 hangs, 0 untyped errors: \(outcomes.sorted { $0.key < $1.key })")
        }
    }
}
