import Foundation
import SQLiteAdapter

/// `Person` with change history kept (``ModelProtocol/keepsHistory``). Its specialised
/// property writes are identical to `Person`'s, so the optimiser merges the two and
/// `Person`'s become 11-instruction thunks into the shared body: +126 instructions per
/// array insert in this binary (measured with Scripts/instructions.py against the build
/// before it), a cost any app with two models of the same shape shares.
final class TrackedPerson: Model {
    static var keepsHistory: Bool { true }
    @Column var name: String = ""
    @Column var email: String = ""
    @Column var age: Int = 0
    @Column var score: Double = 0
    @Column var active: Bool = false
    @Column var joined: Date = Date(timeIntervalSince1970: 0)
    @Column var notes: String?
    @Column var rank: Int64 = 0
    @Column var balance: Double = 0
    @Column var city: String = ""
    init() {}
}

/// The fields both workloads' models write.
protocol HistoryBenchPerson: Model {
    var name: String { get set }
    var email: String { get set }
    var age: Int { get set }
    var score: Double { get set }
    var city: String { get set }
    var rank: Int64 { get set }
}

extension Person: HistoryBenchPerson {}
extension TrackedPerson: HistoryBenchPerson {}

/// `--history N`: what keeping change history costs a write on SQLite (a file, then in
/// memory) — N inserts,
/// N one-column updates and N deletes, each batch in one transaction, and N inserts each
/// committed alone — for `Person` against the same model with history (`TrackedPerson`),
/// alternating over rounds (median per record). The goal is at most 1.3x.
enum HistoryCost {
    static func run(_ n: Int, runs: Int) throws {
        let db = try BenchDatabase()
        try measure(n, runs: runs, try db.adapter(), label: "SQLite file")
        // In memory: the writes' own cost, without the disk's (a file's WAL checkpoints
        // and the device's latency land on whichever round they fall in).
        try measure(n, runs: runs, try SQLiteAdapter(), label: "SQLite in memory")
        blackHole(db)
    }

    private static func measure(_ n: Int, runs: Int, _ store: SQLiteAdapter, label place: String) throws {
        try store.prepare(Person.schema)
        try store.prepare(TrackedPerson.schema)
        var times: [String: [Double]] = [:]
        // Alternating which model goes first: a round's heap growth and WAL checkpoints
        // fall on both alike.
        for run in 0..<max(runs, 3) {
            let order: [(String, Bool)] = run.isMultiple(of: 2) ? [("plain", false), ("history", true)] : [("history", true), ("plain", false)]
            for (side, tracked) in order {
                let round = tracked ? try rounds(TrackedPerson.self, n, store) : try rounds(Person.self, n, store)
                for (label, time) in round { times[side + " " + label, default: []].append(time) }
            }
        }
        print("change history's cost on writes, \(place), n = \(n), median of \(max(runs, 3))")
        for label in ["insert (one transaction)", "update one column (one transaction)", "delete (one transaction)", "insert (a commit each)"] {
            let (plain, history) = (median(times["plain " + label] ?? []), median(times["history " + label] ?? []))
            let padded = label.padding(toLength: 38, withPad: " ", startingAt: 0)
            print(padded + String(format: " plain %8.0f ns   history %8.0f ns   history/plain %.2fx", plain, history, history / plain))
        }
        let entries = try store.history(after: .start, limit: 1, tables: nil).entries.count
        blackHole(entries)
    }

    /// One round of each workload on `Model`, in ns per record.
    private static func rounds<M: HistoryBenchPerson>(_ type: M.Type, _ n: Int, _ store: SQLiteAdapter) throws -> [(String, Double)] {
        var records: [M] = []
        records.reserveCapacity(n)
        var start = ContinuousClock.now
        try store.transaction {
            for k in 0..<n {
                let record = M()
                fill(record, k)
                try record.save(to: store)
                records.append(record)
            }
        }
        let insert = nanoseconds(ContinuousClock.now - start, per: n)
        start = ContinuousClock.now
        try store.transaction {
            for (k, record) in records.enumerated() {
                record.age = k % 70 + 1
                try record.save(to: store)
            }
        }
        let update = nanoseconds(ContinuousClock.now - start, per: n)
        start = ContinuousClock.now
        try store.transaction { for record in records { try record.delete() } }
        let delete = nanoseconds(ContinuousClock.now - start, per: n)
        let single = max(n / 10, 1)
        start = ContinuousClock.now
        for k in 0..<single {
            let record = M()
            fill(record, k)
            try record.save(to: store)
            try record.delete()
        }
        let commits = nanoseconds(ContinuousClock.now - start, per: single)
        return [
            ("insert (one transaction)", insert), ("update one column (one transaction)", update),
            ("delete (one transaction)", delete), ("insert (a commit each)", commits),
        ]
    }

    private static func fill<M: HistoryBenchPerson>(_ record: M, _ k: Int) {
        record.name = "person \(k)"
        record.email = "p\(k)@example.com"
        record.age = k % 90
        record.score = Double(k) * 0.5
        record.city = k.isMultiple(of: 2) ? "Paris" : "Oslo"
        record.rank = Int64(k)
    }

    private static func median(_ values: [Double]) -> Double { values.isEmpty ? .nan : values.sorted()[values.count / 2] }
}
