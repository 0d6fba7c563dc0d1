@testable import CrashHelper
import FileAdapter
import Foundation
import Testing

@Suite struct FileAdapterCrashTests {
    /// Kills a process that saves in a loop at random moments (while it writes, renames or
    /// fills its store), 100 times per layout, and checks that each file is always one
    /// whole save, and never older than the last save the side log acknowledged.
    @Test(arguments: ["archive", "archive-files"]) func killingAWriterLeavesTheLastAcknowledgedSave(_ mode: String) async throws {
        let helper = try #require(crashHelper, "CrashHelper was not built")
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("crash.archive").path
            let (kills, inFlight) = try await runKillRounds(helper, mode: mode, path: path, rounds: reliabilityRounds(100)) { round, acknowledged in
                let store: FileAdapter
                if mode == "archive-files" {
                    store = FileAdapter(configuration: explicitSaves)
                    try store.load(CrashSample.self, from: URL(fileURLWithPath: path + ".samples"))
                    try store.load(CrashNote.self, from: URL(fileURLWithPath: path + ".notes"))
                } else {
                    store = try FileAdapter(file: URL(fileURLWithPath: path), models: [CrashSample.self], configuration: explicitSaves)
                }
                let samples = try CrashSample.all(in: store)
                let generation = try #require(samples.first?.generation, "round \(round): the file is empty")
                #expect(samples.allSatisfy { $0.generation == generation }, "round \(round): a mix of saves")
                #expect(samples.count == CrashSample.expectedCount(generation), "round \(round): a partial save")
                #expect(samples.map(\.position) == Array(0..<samples.count))
                let notes = try CrashNote.all(in: store).map(\.generation)
                if mode == "archive-files" {
                    // The notes' file is saved after the samples' file, and both before the log.
                    let note = try #require(notes.first, "round \(round): no note")
                    #expect(notes.count == 1 && note <= generation && note >= acknowledged, "round \(round): \(notes)")
                } else {
                    #expect(notes == [generation], "round \(round): notes \(notes)")
                }
                return generation
            }
            reportReliability(
                "FileAdapter \(mode): \(kills) SIGKILLs, 0 acknowledged saves lost, 0 partial, "
                    + "\(inFlight) saves on disk before their acknowledgement")
        }
    }
}
