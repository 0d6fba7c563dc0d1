import FileAdapter
import Foundation
import Testing

/// 500 damaged versions of each archive kind (`Damage`: flips, truncations, zeroed blocks,
/// appended garbage, empty, a directory): each loads exactly as saved or fails with an
/// ``ArchiveError`` that leaves the store as it was; never a crash or a hang.
@Suite struct FileAdapterDamageTests {
    @Test(arguments: ["store file", "per-model file"]) func damagedArchivesAreTypedErrors(_ kind: String) throws {
        let perModel = kind == "per-model file"
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("archive")
            let pristine: [UInt8]
            let saved: [[ModelValue]]
            do {
                let store = perModel ? FileAdapter(configuration: explicitSaves) : try FileAdapter(file: url, configuration: explicitSaves)
                for k in 0..<200 {
                    try Jot.create(["title": .string("jot \(k)"), "body": .string(String(repeating: "ü", count: k % 40))], in: store)
                }
                if perModel { try store.save(Jot.self, to: url) } else { try store.save() }
                pristine = Array(try Data(contentsOf: url))
                saved = try rows(store, Jot.schema)
            }
            var outcomes: [String: Int] = [:]
            let variants = damagedVariants(of: pristine, count: reliabilityRounds(500))
            let target = FileAdapter(configuration: explicitSaves)
            try Jot.create(["title": "in memory"], in: target)
            let before = try rows(target, Jot.schema)
            for (name, damage) in variants {
                try damage.place(at: url)
                let started = ContinuousClock.now
                do {
                    if perModel {
                        try target.load(Jot.self, from: url)
                    } else {
                        let store = try FileAdapter(file: url, configuration: explicitSaves)
                        #expect(try rows(store, Jot.schema) == saved, "\(name): loaded different rows")
                    }
                    if perModel {
                        #expect(try rows(target, Jot.schema) == saved, "\(name): loaded different rows")
                        try target.reset()
                        try Jot.create(["title": "in memory"], in: target)
                    }
                    outcomes["loaded as saved", default: 0] += 1
                } catch let error as ArchiveError {
                    outcomes["\(error.kind)", default: 0] += 1
                    #expect(try rows(target, Jot.schema).count == before.count, "\(name): a failed load changed the store")
                }
                #expect(ContinuousClock.now - started < .seconds(10), "\(name): took too long")
            }
            #expect(variants.count >= 500)
            reportReliability(
                "FileAdapter damaged \(kind): \(variants.count) variants, 0 crashes, 0 hangs, 0 untyped errors: "
                    + "\(outcomes.sorted { $0.key < $1.key })")
        }
    }
}
