@testable import CrashHelper
import Foundation
import SQLiteAdapter
import Testing

/// Damaged database files.
@Suite struct SQLiteFaultTests {
    /// Reads everything a damaged file lets through; every failure must be a typed error.
    private func exercise(_ path: String) -> String? {
        do {
            let store = try SQLiteAdapter(path: path)
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

    @Test func damagedFilesGiveTypedErrorsNeverCrashes() throws {
        try withTemporaryDirectory { directory in
            let original = directory.appendingPathComponent("good.sqlite").path
            do {
                var configuration = SQLiteConfiguration()
                configuration.journalMode = .delete  // one file holds everything
                let store = try SQLiteAdapter(path: original, configuration: configuration)
                try seedCitizens(store)
                for k in 0..<300 { try Citizen.create(["name": .string("filler \(k) " + String(repeating: "z", count: k % 50))], in: store) }
            }
            let bytes = try Data(contentsOf: URL(fileURLWithPath: original))
            var random = SystemRandomNumberGenerator()
            var outcomes: [String: Int] = [:]
            let damaged = directory.appendingPathComponent("damaged.sqlite")
            for trial in 0..<200 {
                var copy = bytes
                if trial < 40 {
                    copy = copy.prefix(Int.random(in: 0..<copy.count, using: &random))
                } else {
                    for _ in 0..<Int.random(in: 1...8, using: &random) {
                        copy[Int.random(in: 0..<copy.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
                    }
                }
                try? FileManager.default.removeItem(at: damaged)
                try copy.write(to: damaged)
                outcomes[exercise(damaged.path) ?? "read fine", default: 0] += 1
            }
            #expect(outcomes["untyped"] == nil)
            #expect(outcomes.keys.contains { $0.hasPrefix("sqlite") }, "\(outcomes)")
        }
    }
}
