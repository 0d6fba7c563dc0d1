@testable import CrashHelper
import FileAdapter
import Foundation
import Testing

@Suite struct FileAdapterCrashTests {
    /// Kills a process that saves in a loop at random moments (while it writes, renames or
    /// fills its store) and checks that the file is always one whole save, and never older
    /// than the last save the process reported as done.
    @Test func killingAWriterLeavesTheLastCommittedSave() throws {
        let helper = try #require(crashHelper, "CrashHelper was not built")
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("crash.archive")
            for round in 0..<10 {
                let (committed, killed) = try killCrashHelper(helper, mode: "archive", path: url.path)
                #expect(killed, "round \(round): the helper exited by itself")
                let store = try FileAdapter(file: url, models: [CrashSample.self], options: explicitSaves)
                let samples = try CrashSample.all(in: store)
                let generation = try #require(samples.first?.generation, "round \(round): the file is empty")
                #expect(generation == committed || generation == committed + 1, "round \(round): \(generation) after \(committed)")
                #expect(samples.allSatisfy { $0.generation == generation }, "round \(round): a mix of saves")
                #expect(samples.count == CrashSample.expectedCount(generation), "round \(round): a partial save")
                #expect(samples.map(\.position) == Array(0..<samples.count))
            }
        }
    }
}
