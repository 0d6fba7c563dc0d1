import ArrayAdapter
import FileAdapter
import Foundation

/// A scratch directory for one timing, removed afterwards.
func withScratchDirectory<R>(_ body: (URL) throws -> R) throws -> R {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("swiftmodel-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try body(url)
}

/// Saves without fsync, like `Data.write(to:options: .atomic)` in the baseline: both sides
/// time encoding plus an atomic replace, not the disk.
var benchmarkFileOptions: FileAdapterConfiguration {
    var options = FileAdapterConfiguration()
    options.autosave = .never
    options.synchronous = false
    return options
}

func seededFileStore(_ n: Int, file: URL) throws -> FileAdapter {
    let store = try FileAdapter(file: file, configuration: benchmarkFileOptions)
    try ModelNotifications.withoutNotifications {
        try store.transaction {
            for k in 0..<n {
                let p = Person()
                Fixture.fill(p, k)
                try p.save(to: store)
            }
        }
    }
    return store
}

/// The baseline's structs, with ids 1...n as the store assigns them.
func codablePeople(_ n: Int) -> [PersonRow] {
    (0..<n).map { k in
        var row = Fixture.row(k)
        row.id = Int64(k + 1)
        return row
    }
}

/// FileAdapter against `JSONEncoder`/`JSONDecoder` of equivalent structs, files included.
let fileWorkloads: [Workload] = [
    Workload(
        name: "save",
        model: { n in
            try withScratchDirectory { directory in
                let store = try seededFileStore(n, file: directory.appendingPathComponent("people.archive"))
                return try time { try store.save() }
            }
        },
        baseline: { n in
            try withScratchDirectory { directory in
                let people = codablePeople(n)
                let url = directory.appendingPathComponent("people.json")
                return try time { try JSONEncoder().encode(people).write(to: url, options: .atomic) }
            }
        }),
    Workload(
        name: "load",
        model: { n in
            try withScratchDirectory { directory in
                let url = directory.appendingPathComponent("people.archive")
                try seededFileStore(n, file: url).save()
                return try time {
                    let store = try FileAdapter(file: url, models: [Person.self], configuration: benchmarkFileOptions)
                    blackHole(store)
                }
            }
        },
        baseline: { n in
            try withScratchDirectory { directory in
                let url = directory.appendingPathComponent("people.json")
                try JSONEncoder().encode(codablePeople(n)).write(to: url, options: .atomic)
                return try time {
                    let people = try JSONDecoder().decode([PersonRow].self, from: try Data(contentsOf: url))
                    blackHole(people)
                }
            }
        }),
]
