import Foundation
import SQLiteAdapter

/// What the helper saves; the crash test reads it back through the same type.
final class CrashSample: Model {
    @Column var generation: Int = 0
    @Column var position: Int = 0
    @Column var padding: String = ""
    init() {}

    /// Rows of `generation` for the embedded stores.
    static func expectedCount(_ generation: Int) -> Int { 500 + (generation % 7) * 700 }
    /// Fewer rows of `generation`: over the network (PostgreSQL, a round trip per row) and
    /// for the power-cut rounds.
    static func smallCount(_ generation: Int) -> Int { 20 + (generation % 7) * 60 }
}

extension CrashSample {
    /// Replaces what `store` holds with generation `generation`, in one transaction:
    /// `count` samples and one note.
    static func replaceGeneration(_ generation: Int, count: Int, in store: any PersistenceAdapter) throws {
        try store.transaction {
            _ = try CrashSample.query(in: store).deleteAll()
            _ = try CrashNote.query(in: store).deleteAll()
            for position in 0..<count {
                let sample = CrashSample()
                sample.generation = generation
                sample.position = position
                sample.padding = String(repeating: "x", count: (position * 31 + generation) % 97)
                try sample.save(to: store)
            }
            let note = CrashNote()
            note.generation = generation
            try note.save(to: store)
        }
    }
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
}
