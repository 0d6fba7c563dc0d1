import ArrayAdapter
import Foundation

/// One workload: `prepare` builds untimed state, `run` is timed.
struct Workload: Sendable {
    let name: String
    let model: @Sendable (Int) throws -> Duration
    let baseline: @Sendable (Int) throws -> Duration
    /// A second baseline timed in the same run, where the suite has one (ArrayAdapter: a
    /// class per record behind a lock, ``LockedClassBaseline``; the SQLite reads and eager
    /// loads: the raw reads into a class per row, ``ClassPerRowSQLite``).
    var reference: (@Sendable (Int) throws -> Duration)? = nil
}

/// Times `body`. The body runs inside ``runTimedBody(_:)``, reached through
/// ``timedRegion``: `Scripts/instructions.py` counts the instructions of the timed bodies,
/// and nothing else, by collecting only inside that one function (`valgrind
/// --tool=callgrind --toggle-collect`). (Typed throws: a body that cannot throw needs no
/// `try`, and the body's error is rethrown after the clock is read.)
func time<E: Error>(_ body: () throws(E) -> Void) throws(E) -> Duration {
    let clock = ContinuousClock()
    var failure: E?
    let start = clock.now
    timedRegion {
        do throws(E) { try body() } catch { failure = error }
    }
    let elapsed = clock.now - start
    if let failure { throw failure }
    return elapsed
}

/// `d` in nanoseconds for each of `count` operations.
func nanoseconds(_ d: Duration, per count: Int) -> Double {
    (Double(d.components.seconds) * 1e18 + Double(d.components.attoseconds)) / 1e9 / Double(count)
}

/// Runs a timed body (see ``time(_:)``). Called only through ``timedRegion``, a variable set
/// at startup, so the optimiser neither inlines it nor clones it per body: every timed body
/// runs inside this one function, whose name a profiler can be given.
@inline(never)
func runTimedBody(_ body: () -> Void) { body() }

/// What ``time(_:)`` calls its body through: ``runTimedBody(_:)``, assigned again at startup
/// (``ModelBenchmarks/main()``) so the call stays indirect. `nonisolated(unsafe)`: written
/// once, first thing in `main()`, before any benchmark thread or task exists; only read
/// after.
nonisolated(unsafe) var timedRegion: (() -> Void) -> Void = { $0() }

func seededStore(_ n: Int) throws -> (ArrayAdapter, [Person]) {
    let store = ArrayAdapter()
    var people: [Person] = []
    people.reserveCapacity(n)
    try ModelNotifications.withoutNotifications {
        for k in 0..<n {
            let p = Person()
            Fixture.fill(p, k)
            try p.save(to: store)
            people.append(p)
        }
    }
    return (store, people)
}

func seededPlain(_ n: Int) -> PlainStore {
    var plain = PlainStore()
    plain.rows.reserveCapacity(n)
    for k in 0..<n { _ = plain.insert(Fixture.row(k)) }
    return plain
}

let lookups = 10_000
/// Repetitions of the filtered query per timing.
let queryRepeats = 20

let workloads: [Workload] = [
    Workload(
        name: "insert",
        model: { n in
            let store = ArrayAdapter()
            return try time {
                for k in 0..<n {
                    let p = Person()
                    Fixture.fill(p, k)
                    try p.save(to: store)
                }
            }
        },
        baseline: { n in
            var plain = PlainStore()
            let d = time { for k in 0..<n { _ = plain.insert(Fixture.row(k)) } }
            blackHole(plain)
            return d
        },
        reference: { n in LockedClassBaseline.insert(n) }),
    Workload(
        name: "fetch all",
        model: { n in
            let (store, _) = try seededStore(n)
            return try time {
                let all = try Person.all(in: store)
                var sum = 0
                for p in all { sum &+= p.age }
                blackHole(sum)
            }
        },
        baseline: { n in
            let plain = seededPlain(n)
            return time {
                var all: [PersonRow] = []
                all.reserveCapacity(n)
                for case let row? in plain.rows { all.append(row) }
                var sum = 0
                for p in all { sum &+= p.age }
                blackHole(sum)
            }
        },
        reference: { n in LockedClassBaseline.fetchAll(n) }),
    Workload(
        name: "10k lookups by id",
        model: { n in
            let (store, _) = try seededStore(n)
            let ids = Fixture.lookupIDs(lookups, n: n)
            return try time {
                var sum = 0
                for id in ids { sum &+= try Person.find(id, in: store)?.age ?? 0 }
                blackHole(sum)
            }
        },
        baseline: { n in
            let plain = seededPlain(n)
            let ids = Fixture.lookupIDs(lookups, n: n)
            return time {
                var sum = 0
                for id in ids {
                    if let slot = plain.index[id], let row = plain.rows[slot] { sum &+= row.age }
                }
                blackHole(sum)
            }
        },
        reference: { n in LockedClassBaseline.lookupsByID(n) }),
    Workload(
        name: "filtered query x20",
        model: { n in
            let (store, _) = try seededStore(n)
            return try timeFilteredQuery(store, repeats: queryRepeats)
        },
        baseline: { n in
            let plain = seededPlain(n)
            return time {
                var sum = 0.0
                for _ in 0..<queryRepeats {
                    let top = plain.rows.lazy.compactMap { $0 }
                        .filter { $0.age >= 30 && $0.age <= 40 && $0.city == "Paris" }
                        .sorted { $0.score > $1.score }
                        .prefix(100)
                    for p in top { sum += p.score }
                }
                blackHole(sum)
            }
        },
        reference: { n in LockedClassBaseline.filtered(n) }),
    Workload(
        name: "update all",
        model: { n in
            let (_, people) = try seededStore(n)
            return try time {
                for p in people {
                    p.score += 1
                    try p.save()
                }
            }
        },
        baseline: { n in
            var plain = seededPlain(n)
            let ids = Array(1...Int64(n))
            let d = time {
                for id in ids {
                    if let slot = plain.index[id] { plain.rows[slot]?.score += 1 }
                }
            }
            blackHole(plain)
            return d
        },
        reference: { n in LockedClassBaseline.updateAll(n) }),
    Workload(
        name: "delete half",
        model: { n in
            let (_, people) = try seededStore(n)
            return try time {
                for (k, p) in people.enumerated() where k % 2 == 0 { try p.delete() }
            }
        },
        baseline: { n in
            var plain = seededPlain(n)
            let ids = Array(1...Int64(n))
            let d = time {
                for (k, id) in ids.enumerated() where k % 2 == 0 {
                    if let slot = plain.index.removeValue(forKey: id) { plain.rows[slot] = nil }
                }
            }
            blackHole(plain)
            return d
        },
        reference: { n in LockedClassBaseline.deleteHalf(n) }),
]

@main
struct ModelBenchmarks {
    /// Runs the mode the arguments name; a failure (a bad argument, a missing server) is
    /// printed, with exit status 1, not a trap.
    static func main() {
        timedRegion = runTimedBody
        do {
            try run()
        } catch {
            FileHandle.standardError.write(Data("ModelBenchmarks: \(error)\n".utf8))
            exit(1)
        }
    }

    static func run() throws {
        var arguments = CommandLine.arguments.dropFirst()
        var json = false, n = 100_000, sqliteN = 50_000, runs = 5
        var only: String?, adapter: String?, side: Side?
        var fileSizes = [100_000]
        var jsonN = 100_000
        var relayDelay = Duration.microseconds(500)
        // The library's default posts nothing until a program names `.modelDidChange`;
        // `--center` measures with a NotificationCenter post per change.
        if CommandLine.arguments.contains("--center") { ModelNotifications.postsToNotificationCenter = true }
        if CommandLine.arguments.contains("--no-center") { ModelNotifications.postsToNotificationCenter = false }
        while let argument = arguments.popFirst() {
            switch argument {
            case "--json": json = true
            case "--no-center", "--center": break
            case "--micro": try Micro.run(); return
            case "--micro-sqlite": try MicroSQLite.run(); return
            case "--micro-tx": try MicroTransaction.run(arguments.popFirst().flatMap(Int.init) ?? 100_000); return
            case "--micro-rows": RowStorage.run(arguments.popFirst().flatMap(Int.init) ?? 100_000); return
            case "--async": try AsyncOverhead.run(arguments.popFirst().flatMap(Int.init) ?? 100_000); return
            case "--async-tx": try AsyncTransactions.run(arguments.popFirst().flatMap(Int.init) ?? 10_000, runs: runs); return
            case "--history": try HistoryCost.run(arguments.popFirst().flatMap(Int.init) ?? 10_000, runs: runs); return
            case "--rest": try RESTWorkloads.run(arguments.popFirst().flatMap(Int.init) ?? 1_000); return
            case "--postgres": try PostgresWorkloads.run(arguments.popFirst().flatMap(Int.init) ?? 50_000, runs: runs); return
            case "--postgres-concurrent":
                try PostgresConcurrency.run(arguments.popFirst().flatMap(Int.init) ?? 20_000, runs: runs)
                return
            case "--relay":
                // A latency relay alone, for other clients (the peer bench): 0.5 ms each way
                // (or --delay-ms before it) to SWIFTMODEL_POSTGRES_URL's port, for the given seconds.
                try PostgresConcurrency.relayOnly(seconds: arguments.popFirst().flatMap(Int.init) ?? 600, delay: relayDelay)
                return
            case "--postgres-latency":
                try PostgresConcurrency.runWithLatency(arguments.popFirst().flatMap(Int.init) ?? 10_000, runs: runs, delay: relayDelay)
                return
            case "--contexts": try ContextOverhead.run(arguments.popFirst().flatMap(Int.init) ?? 100_000, runs: runs); return
            case "--tx-memory": try TransactionMemory.run(arguments.popFirst().flatMap(Int.init) ?? 200_000); return
            case "--peak-memory": try PeakMemory.run(arguments.popFirst().flatMap(Int.init) ?? 1_000_000); return
            case "--peak-memory-case":
                let name = arguments.popFirst() ?? ""
                try PeakMemory.runCase(name, arguments.popFirst().flatMap(Int.init) ?? 1_000_000)
                return
            case "--delay-ms":
                // The relay's delay each way for a later --postgres-latency or --relay (default 0.5 ms).
                guard let ms = arguments.popFirst().flatMap(Double.init), ms >= 0, ms < 10_000 else {
                    throw BenchmarkError("--delay-ms needs a number of milliseconds below 10,000")
                }
                relayDelay = .microseconds(Int((ms * 1000).rounded()))
            case "--only": only = arguments.popFirst()
            case "--adapter": adapter = arguments.popFirst()
            case "--n": n = arguments.popFirst().flatMap(Int.init) ?? n
            case "--sqlite-n": sqliteN = arguments.popFirst().flatMap(Int.init) ?? sqliteN
            case "--file-n":
                fileSizes = arguments.popFirst().map { $0.split(separator: ",").compactMap { Int($0) } } ?? fileSizes
            case "--json-n": jsonN = arguments.popFirst().flatMap(Int.init) ?? jsonN
            case "--runs": runs = arguments.popFirst().flatMap(Int.init) ?? runs
            case "--side":
                guard let named = arguments.popFirst().flatMap(Side.init(rawValue:)) else {
                    throw BenchmarkError("--side needs model, baseline or reference")
                }
                side = named
            default:
                print("usage: ModelBenchmarks [--json] [--adapter array|sqlite|relations|file|json] [--only prefix] [--n N] [--sqlite-n N] [--file-n N,N…] [--json-n N] [--runs R] [--side model|baseline|reference] [--center|--no-center] [--micro] [--micro-sqlite] [--micro-tx N] [--micro-rows N] [--async N] [--async-tx N] [--history N] [--tx-memory N] [--peak-memory N] [--contexts N] [--rest N] [--postgres N] [--postgres-concurrent N] [--delay-ms MS] [--postgres-latency N | --relay SECONDS] (PostgreSQL modes need SWIFTMODEL_POSTGRES_URL)")
                return
            }
        }
        // Each suite's second baseline, where its workloads have one (`Workload.reference`).
        let lockedClass = "a final class per record, rows in an [Int64: Row] dictionary behind a lock"
        let classPerRow = "the same raw reads, each row into a new final class instance (as the model returns records)"
        let suites: [(key: String, name: String, baseline: String, reference: String, n: Int, workloads: [Workload])] = [
            ("array", "ArrayAdapter", "plain Swift arrays/dictionaries of structs", lockedClass, n, workloads),
            ("sqlite", "SQLiteAdapter", "the raw sqlite3 C API (same file settings)", classPerRow, sqliteN, sqliteWorkloads),
            (
                "relations", "Eager loading (SQLite)", "two raw sqlite3 reads grouped by hand", classPerRow, sqliteN,
                eagerLoadWorkloads + hasOneWorkloads
            ),
        ] + fileSizes.map { ("file", "FileAdapter", "JSONEncoder/JSONDecoder of Codable structs", "", $0, fileWorkloads) }
            + [("json", "Serialization", "JSONEncoder/JSONDecoder of Codable structs (ISO 8601 dates)", "", jsonN, jsonWorkloads)]
        for suite in suites where adapter == nil || adapter == suite.key {
            let selected = suite.workloads.filter { only == nil || $0.name.hasPrefix(only ?? "") }
            if let side {
                try runSide(side, of: selected, in: suite.name, n: suite.n)
                continue
            }
            let referenced = selected.contains { $0.reference != nil }
            if !json {
                print("\n\(suite.name) vs \(suite.baseline), n = \(suite.n), median of \(runs) runs")
                if referenced { print("reference: \(suite.reference)") }
                print(
                    "workload".padding(toLength: 20, withPad: " ", startingAt: 0) + "     model ms   baseline ms    ratio"
                        + (referenced ? "  reference ms  vs ref" : ""))
            }
            for workload in selected {
                var model: [Double] = [], base: [Double] = [], reference: [Double] = []
                for _ in 0..<runs {
                    model.append(milliseconds(try workload.model(suite.n)))
                    base.append(milliseconds(try workload.baseline(suite.n)))
                    if let timeReference = workload.reference { reference.append(milliseconds(try timeReference(suite.n))) }
                }
                let m = median(model), b = median(base)
                let ratio = m / b
                let r = reference.isEmpty ? nil : median(reference)
                if json {
                    let referenceFields = r.map { ",\"reference_ms\":\(rounded($0)),\"reference_ratio\":\(rounded(m / $0))" } ?? ""
                    print(
                        "{\"adapter\":\"\(suite.name)\",\"workload\":\"\(workload.name)\",\"n\":\(suite.n),\"median_ms\":\(rounded(m)),\"baseline_ms\":\(rounded(b)),\"ratio\":\(rounded(ratio))\(referenceFields)}"
                    )
                } else {
                    print(
                        workload.name.padding(toLength: 20, withPad: " ", startingAt: 0)
                            + String(format: "%13.2f %13.2f %8.2f", m, b, ratio)
                            + (r.map { String(format: "%14.2f %7.2f", $0, m / $0) } ?? ""))
                }
            }
        }
    }

    /// One side of a workload (`--side`).
    enum Side: String {
        case model, baseline, reference
    }

    /// Runs only `side` of each workload, once, printing its time: what
    /// `Scripts/instructions.py` runs under callgrind to count one side's instructions.
    static func runSide(_ side: Side, of selected: [Workload], in suite: String, n: Int) throws {
        for workload in selected {
            let elapsed: Duration
            switch side {
            case .model: elapsed = try workload.model(n)
            case .baseline: elapsed = try workload.baseline(n)
            case .reference:
                guard let reference = workload.reference else { continue }
                elapsed = try reference(n)
            }
            print("\(suite)\t\(workload.name)\t\(side.rawValue)\t\(rounded(milliseconds(elapsed))) ms")
        }
    }

    static func milliseconds(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1_000 + Double(d.components.attoseconds) / 1e15
    }

    static func median(_ values: [Double]) -> Double {
        let s = values.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    static func rounded(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }
}
