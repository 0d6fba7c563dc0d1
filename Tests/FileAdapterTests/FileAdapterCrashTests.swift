@testable import ArchiveCrashHelper
import FileAdapter
import Foundation
import Testing

@Suite struct FileAdapterCrashTests {
    /// The helper executable, built next to the test bundle.
    private var helper: URL? {
        let directory = Bundle.main.executableURL?.deletingLastPathComponent()
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let url = directory.appendingPathComponent("ArchiveCrashHelper")
        return FileManager.default.isExecutableFile(atPath: url.path) ? url : nil
    }

    /// Kills a process that saves in a loop at random moments (while it writes, renames or
    /// fills its store) and checks that the file is always one whole save.
    @Test func killingAWriterLeavesTheOldOrTheNewFile() throws {
        let helper = try #require(helper, "ArchiveCrashHelper was not built")
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("crash.archive")
            var lastGeneration = 0
            for round in 0..<8 {
                let process = Process()
                process.executableURL = helper
                process.arguments = [url.path]
                let output = Pipe()
                process.standardOutput = output
                try process.run()
                // Wait for a first save, then kill at a random point of a later one.
                _ = output.fileHandleForReading.availableData
                usleep(UInt32.random(in: 1_000...60_000))
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                #expect(process.terminationReason == .uncaughtSignal, "round \(round): the helper exited by itself")

                let store = try FileAdapter(file: url, models: [CrashSample.self], options: explicitSaves)
                let samples = try CrashSample.all(in: store)
                let generation = try #require(samples.first?.generation, "round \(round): the file is empty")
                #expect(samples.allSatisfy { $0.generation == generation }, "round \(round): a mix of saves")
                #expect(samples.count == CrashSample.expectedCount(generation), "round \(round): a partial save")
                #expect(samples.map(\.position) == Array(0..<samples.count))
                lastGeneration = max(lastGeneration, generation)
            }
            #expect(lastGeneration >= 1)
        }
    }
}
