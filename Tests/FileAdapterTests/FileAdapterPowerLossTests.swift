@testable import CrashHelper
import FileAdapter
@testable import SwiftModelFile
import Foundation
import Testing

/// Simulated power cuts (``SimulatedDisk``) between any two file-system calls of a save.
///
/// Promises tested (`Docs/FileAdapter.md`, "Durability"):
/// - `synchronous = true`: after a cut, each file is exactly the last acknowledged save
///   or the one in flight;
/// - `synchronous = false`: each file is a whole save no older than the last one on disk
///   before the run, or damaged, which loading reports as an ``ArchiveError``; never a mix.
@Suite struct FileAdapterPowerLossTests {
    struct Setting: Sendable, CustomTestStringConvertible {
        let synchronous: Bool
        let perModelFiles: Bool
        var testDescription: String {
            (perModelFiles ? "per-model files" : "store file") + (synchronous ? ", synchronous" : ", not synchronous")
        }
    }

    static let settings = [true, false].flatMap { files in
        [true, false].map { Setting(synchronous: $0, perModelFiles: files) }
    }

    /// The generation a loaded store holds (0 when empty); records an issue for a mix.
    private func generation(_ store: FileAdapter, round: Int) throws -> (rows: Int, note: Int) {
        let rows = try CrashSample.query(in: store).order(by: \.position).all()
        let generation = rows.first?.generation ?? 0
        #expect(rows.allSatisfy { $0.generation == generation }, "round \(round): a mix of saves")
        if generation > 0 {
            #expect(rows.count == CrashSample.smallCount(generation), "round \(round): a partial save")
        }
        let notes = try CrashNote.all(in: store)
        #expect(notes.count <= 1, "round \(round): \(notes.count) notes")
        return (generation, notes.first?.generation ?? 0)
    }

    @Test(arguments: settings) func powerCutsKeepWhatTheSettingPromises(_ setting: Setting) throws {
        let cuts = reliabilityRounds(100)
        let disk = SimulatedDisk(seed: UInt64.random(in: 1...UInt64.max))
        var options = FileAdapterConfiguration()
        options.autosave = .never
        options.synchronous = setting.synchronous
        options.fileSystem = disk
        let storeURL = URL(fileURLWithPath: "/disk/power.archive")
        let rowsURL = URL(fileURLWithPath: "/disk/rows.archive"), notesURL = URL(fileURLWithPath: "/disk/notes.archive")
        func open() throws -> FileAdapter {
            guard setting.perModelFiles else { return try FileAdapter(file: storeURL, models: [CrashSample.self], configuration: options) }
            let store = FileAdapter(configuration: options)
            try store.load(CrashSample.self, from: rowsURL)
            try store.load(CrashNote.self, from: notesURL)
            return store
        }
        var durable = 0, lostSaves = 0, damaged = 0, untyped = 0
        for round in 0..<cuts {
            disk.arm(Int.random(in: 0...25))
            var acknowledged = durable
            do {
                let store = try open()
                for generation in (durable + 1)...(durable + 8) {
                    try CrashSample.replaceGeneration(generation, count: CrashSample.smallCount(generation), in: store)
                    if setting.perModelFiles {
                        try store.save(CrashSample.self, to: rowsURL)
                        try store.save(CrashNote.self, to: notesURL)
                    } else {
                        try store.save()
                    }
                    acknowledged = generation
                }
            } catch is ArchiveError {
                // The cut: every later call fails.
            } catch {
                untyped += 1
                Issue.record("round \(round): an untyped error at the cut: \(type(of: error)) \(error)")
            }
            disk.reboot()
            let found: (rows: Int, note: Int)
            do {
                found = try generation(try open(), round: round)
            } catch let error as ArchiveError {
                #expect(!setting.synchronous, "round \(round): a damaged file after synchronous saves: \(error)")
                #expect([.truncated, .corrupt, .foreign].contains(error.kind), "round \(round): \(error)")
                damaged += 1
                for url in [storeURL, rowsURL, notesURL] { disk.erase(url.path) }  // start over
                durable = 0
                continue
            }
            #expect(found.rows <= acknowledged + 1, "round \(round): \(found.rows) after \(acknowledged)")
            #expect(min(found.rows, found.note) >= durable, "round \(round): \(found), older than \(durable) on disk before")
            if setting.perModelFiles {
                // The notes file is written after the rows file, so it is never ahead.
                #expect(found.note <= found.rows, "round \(round): \(found)")
            } else {
                #expect(found.note == found.rows, "round \(round): \(found)")
            }
            if setting.synchronous {
                #expect(found.note >= acknowledged, "round \(round): lost acknowledged save \(acknowledged): \(found)")
            } else if found.note < acknowledged {
                lostSaves += acknowledged - found.note
            }
            durable = min(found.rows, found.note)
        }
        let statistics = disk.statistics
        #expect(statistics.cuts >= cuts * 9 / 10, "only \(statistics.cuts) of \(cuts) rounds reached their cut")
        #expect(untyped == 0)
        reportReliability(
            "FileAdapter \(setting.testDescription): \(statistics.cuts) power cuts, \(statistics.tornFiles) torn and "
                + "\(statistics.lostData) lost unsynced files, \(statistics.lostDirectoryChanges) lost directory changes; "
                + "\(damaged) damaged files (typed errors), 0 mixed, \(lostSaves) acknowledged saves lost")
    }
}
