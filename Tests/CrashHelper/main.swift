// Writes a store over and over until killed; the crash tests kill it at random moments and
// check that reopening gives the last committed state exactly.
//
// Usage: CrashHelper archive|sqlite <file>
// Each round g replaces the stored rows with `CrashSample.expectedCount(g)` rows of
// generation g (archive: one save; sqlite: one transaction), then prints "saved g".
import FileAdapter
import Foundation
import SQLiteAdapter

let arguments = CommandLine.arguments
guard arguments.count == 3, ["archive", "sqlite"].contains(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: CrashHelper archive|sqlite <file>\n".utf8))
    exit(2)
}

func fill(_ store: any PersistenceAdapter, generation: Int) throws {
    for position in 0..<CrashSample.expectedCount(generation) {
        let sample = CrashSample()
        sample.generation = generation
        sample.position = position
        sample.padding = String(repeating: "x", count: position % 97)
        try sample.save(to: store)
    }
}

do {
    var generation = 1
    if arguments[1] == "archive" {
        var options = FileAdapterOptions()
        options.autosave = .never
        let store = try FileAdapter(file: URL(fileURLWithPath: arguments[2]), models: [CrashSample.self], options: options)
        while true {
            try store.reset()
            try store.transaction { try fill(store, generation: generation) }
            try store.save()
            FileHandle.standardOutput.write(Data("saved \(generation)\n".utf8))
            generation += 1
        }
    } else {
        let store = try SQLiteAdapter(path: arguments[2])
        while true {
            try store.transaction {
                _ = try CrashSample.query(in: store).deleteAll()
                try fill(store, generation: generation)
            }
            FileHandle.standardOutput.write(Data("saved \(generation)\n".utf8))
            generation += 1
        }
    }
} catch {
    FileHandle.standardError.write(Data("CrashHelper: \(error)\n".utf8))
    exit(1)
}
