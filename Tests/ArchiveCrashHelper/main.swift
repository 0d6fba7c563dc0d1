// Saves a FileAdapter store over and over until killed; FileAdapterTests'
// atomicity test kills it at random moments and checks the file it leaves.
//
// Usage: ArchiveCrashHelper <store file>
// Generation g holds `CrashSample.expectedCount(g)` records, all with generation g.
import FileAdapter
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: ArchiveCrashHelper <store file>\n".utf8))
    exit(2)
}
var options = FileAdapterOptions()
options.autosave = .never
do {
    let store = try FileAdapter(file: URL(fileURLWithPath: arguments[1]), models: [CrashSample.self], options: options)
    var generation = 1
    while true {
        try store.reset()
        try store.transaction {
            for position in 0..<CrashSample.expectedCount(generation) {
                let sample = CrashSample()
                sample.generation = generation
                sample.position = position
                sample.padding = String(repeating: "x", count: position % 97)
                try sample.saveOrThrow(to: store)
            }
        }
        try store.save()
        FileHandle.standardOutput.write(Data("saved \(generation)\n".utf8))
        generation += 1
    }
} catch {
    FileHandle.standardError.write(Data("ArchiveCrashHelper: \(error)\n".utf8))
    exit(1)
}
