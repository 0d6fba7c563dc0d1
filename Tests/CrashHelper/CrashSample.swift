import Foundation
import ModelCore

/// What the helper saves; the crash test reads it back through the same type.
final class CrashSample: Model {
    @Column var generation: Int = 0
    @Column var position: Int = 0
    @Column var padding: String = ""
    init() {}

    /// Rows of `generation` for the embedded stores.
    static func expectedCount(_ generation: Int) -> Int { 500 + (generation % 7) * 700 }
    /// Rows of `generation` over the network (PostgreSQL): a round trip per row.
    static func networkCount(_ generation: Int) -> Int { 20 + (generation % 7) * 60 }
}

/// One row per generation, in a second table (a second file in per-model mode).
final class CrashNote: Model {
    @Column var generation: Int = 0
    init() {}
}

/// The side log of acknowledged commits: one line per generation, appended after the
/// commit returned (one writer at a time), then printed as "saved g".
struct SideLog {
    let handle: FileHandle

    init(path: String) throws {
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
    }

    func acknowledge(_ generation: Int) throws {
        try handle.write(contentsOf: Data("\(generation)\n".utf8))
        FileHandle.standardOutput.write(Data("saved \(generation)\n".utf8))
    }

    /// The last generation logged at `path` (0 when none).
    static func lastAcknowledged(at path: String) -> Int {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return 0 }
        return text.split(separator: "\n").compactMap { Int($0) }.last ?? 0
    }
}
