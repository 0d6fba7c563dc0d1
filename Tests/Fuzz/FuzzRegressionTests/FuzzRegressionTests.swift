import Foundation
import FuzzTargets
import Testing

/// Replays every seed of `Tests/Fuzz/Corpus/<target>` and every past finding of
/// `Tests/Fuzz/Regressions/<target>` through the fuzz targets (a finding aborts the
/// process, which fails the run).
@Suite struct FuzzRegressionTests {
    static let targets: [(String, @Sendable (UnsafeRawBufferPointer) -> Void)] = [
        ("FuzzJSONImport", fuzzJSONImport), ("FuzzArchiveReader", fuzzArchiveReader),
        ("FuzzSQLiteRows", fuzzSQLiteRows), ("FuzzCasting", fuzzCasting),
    ]

    static var fuzzDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    }

    @Test(arguments: targets.map(\.0)) func seedsAndFindingsRunClean(_ name: String) throws {
        let target = try #require(Self.targets.first { $0.0 == name }?.1)
        var files: [URL] = []
        for folder in ["Corpus", "Regressions"] {
            let directory = Self.fuzzDirectory.appendingPathComponent(folder).appendingPathComponent(name)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            files += names.filter { !$0.hasPrefix(".") }.sorted().map { directory.appendingPathComponent($0) }
        }
        #expect(files.count >= 3, "\(name) has \(files.count) seeds")
        for file in files {
            let bytes = try Data(contentsOf: file)
            bytes.withUnsafeBytes { target($0) }
        }
    }
}
