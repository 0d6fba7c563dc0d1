// Writes a store over and over until killed; the crash tests kill it at random moments and
// check that reopening gives a whole generation, never older than the last acknowledged.
//
// Usage: CrashHelper archive|archive-files|sqlite-wal|sqlite-delete <path>
//        CrashHelper postgres <path> <connection string> <schema>   (<path>: the side log's)
// Each round g replaces the stored rows with `CrashSample.expectedCount(g)` rows of
// generation g (archive: one save of the store file; archive-files: the samples' file,
// then the notes' file; sqlite: one transaction), then appends "g" to the side log
// `<path>.acknowledged` (the commit is acknowledged) and prints "saved g". It starts at
// the generation after the one stored.
import FileAdapter
import Foundation
import PostgresAdapter
import SQLiteAdapter

let modes = ["archive", "archive-files", "sqlite-wal", "sqlite-delete", "postgres"]
let arguments = CommandLine.arguments
guard arguments.count == (arguments.count > 1 && arguments[1] == "postgres" ? 5 : 3), modes.contains(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: CrashHelper \(modes.joined(separator: "|")) <path>\n".utf8))
    exit(2)
}
let mode = arguments[1], path = arguments[2]

func replace(_ store: any PersistenceAdapter, generation: Int) throws {
    let count = mode == "postgres" ? CrashSample.smallCount(generation) : CrashSample.expectedCount(generation)
    try CrashSample.replaceGeneration(generation, count: count, in: store)
}

func stored(_ store: any PersistenceAdapter) throws -> Int {
    try CrashSample.query(in: store).order(by: \.generation, .descending).first()?.generation ?? 0
}

do {
    let log = try SideLog(path: path + ".acknowledged")
    switch mode {
    case "archive", "archive-files":
        var options = FileAdapterConfiguration()
        options.autosave = .never
        let perModel = mode == "archive-files"
        let store: FileAdapter
        if perModel {
            store = FileAdapter(configuration: options)
            try store.load(CrashSample.self, from: URL(fileURLWithPath: path + ".samples"))
            try store.load(CrashNote.self, from: URL(fileURLWithPath: path + ".notes"))
        } else {
            store = try FileAdapter(file: URL(fileURLWithPath: path), models: [CrashSample.self, CrashNote.self], configuration: options)
        }
        var generation = try stored(store) + 1
        while true {
            try replace(store, generation: generation)
            if perModel {
                try store.save(CrashSample.self)
                try store.save(CrashNote.self)
            } else {
                try store.save()
            }
            try log.acknowledge(generation)
            generation += 1
        }
    default:
        let store: any PersistenceAdapter
        if mode == "postgres" {
            var configuration = PostgresConfiguration(arguments[3])
            configuration.schema = arguments[4]
            let postgres = try PostgresAdapter(configuration)
            // A killed predecessor's COMMIT may still be under way on the server: wait for
            // its transaction (which holds the tables' row locks) to end before reading how
            // far it got, or this process would write that generation again beside it.
            try postgres.prepare(CrashSample.schema)
            try postgres.prepare(CrashNote.schema)
            let tables = [CrashSample.schema, CrashNote.schema].map { "\"\($0.tableName)\"" }.joined(separator: ", ")
            try postgres.transaction { _ = try postgres.execute("LOCK TABLE \(tables) IN SHARE ROW EXCLUSIVE MODE") }
            store = postgres
        } else {
            var configuration = SQLiteConfiguration()
            configuration.journalMode = mode == "sqlite-wal" ? .wal : .delete
            store = try SQLiteAdapter(path: path, configuration: configuration)
        }
        var generation = try stored(store) + 1
        while true {
            try replace(store, generation: generation)
            try log.acknowledge(generation)
            generation += 1
        }
    }
} catch {
    FileHandle.standardError.write(Data("CrashHelper: \(error)\n".utf8))
    exit(1)
}
