import ArrayAdapter
import Foundation
import SQLiteAdapter

/// `--contexts N`: what a ModelContext costs on the paths it touches, on ArrayAdapter and
/// SQLite (N stored people, 10k distinct lookups by id, median of `--runs`):
/// - `find` without a context (the path every existing caller takes),
/// - `find` in a fresh context (each id a miss: store read + identity-map registration),
/// - `find` in a context that already holds the records (identity-map hit, no store read),
/// - N updates saved by `context.save()` against the same saves in `store.transaction {}`.
enum ContextOverhead {
    static func run(_ n: Int, runs: Int) throws {
        let (memory, _) = try seededStore(n)
        let database = try BenchDatabase(seed: n)
        let sqlite = try database.adapter()
        let count = Swift.min(n, 10_000)
        // Distinct ids in a fixed scattered order, so every lookup in a fresh context misses.
        let ids = (0..<count).map { Int64(($0 &* 7_919) % count + 1) }
        print("contexts: \(count) lookups by id, n = \(n), median of \(runs)")
        for (name, store) in [("ArrayAdapter", memory as any PersistenceAdapter), ("SQLiteAdapter", sqlite)] {
            var none: [Double] = [], cold: [Double] = [], warm: [Double] = []
            for _ in 0..<Swift.max(runs, 1) {
                none.append(perLookup(try time { blackHole(try finds(ids, store)) }, count))
                let fresh = ModelContext()
                cold.append(perLookup(try time { blackHole(try fresh.run { try finds(ids, store) }) }, count))
                let holding = ModelContext(retainsRecords: true)
                _ = try holding.run { try finds(ids, store) }
                warm.append(perLookup(try time { blackHole(try holding.run { try finds(ids, store) }) }, count))
            }
            let (a, b, c) = (ModelBenchmarks.median(none), ModelBenchmarks.median(cold), ModelBenchmarks.median(warm))
            print(
                String(
                    format: "  %@  no context %7.0f ns   new context %7.0f ns (%.2fx)   held %7.0f ns (%.2fx)",
                    name, a, b, b / a, c, c / a))
        }
        try unitOfWork(memory, count: count, runs: runs)
        blackHole(database)
    }

    /// N updates: one `context.save()` against saving each record in one transaction.
    private static func unitOfWork(_ store: ArrayAdapter, count: Int, runs: Int) throws {
        var plain: [Double] = [], context: [Double] = []
        for round in 0..<Swift.max(runs, 1) {
            let records = try Array(Person.all(in: store).prefix(count))
            plain.append(
                perLookup(
                    try time {
                        try store.transaction {
                            for record in records {
                                record.age = (record.age + 1) % 100
                                try record.save()
                            }
                        }
                    }, count))
            let unit = ModelContext()
            let held = try unit.run { try Array(Person.all(in: store).prefix(count)) }
            context.append(
                perLookup(
                    try time {
                        for record in held { record.age = (record.age + 1 + round) % 100 }
                        try unit.save()
                    }, count))
        }
        let (a, b) = (ModelBenchmarks.median(plain), ModelBenchmarks.median(context))
        print(String(format: "  save %d updates: store.transaction %7.0f ns/record   context.save() %7.0f ns/record (%.2fx)", count, a, b, b / a))
    }

    private static func finds(_ ids: [Int64], _ store: any PersistenceAdapter) throws -> Int {
        var sum = 0
        for id in ids { sum &+= try Person.find(id, in: store)?.age ?? 0 }
        return sum
    }

    private static func perLookup(_ d: Duration, _ count: Int) -> Double {
        nanoseconds(d, per: count)
    }
}
