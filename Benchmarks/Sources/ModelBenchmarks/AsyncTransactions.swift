import ArrayAdapter
import Foundation
import SQLiteAdapter

/// `--async-tx N`: N transactions that each write one record, synchronous against async,
/// on ArrayAdapter and on a SQLite file, alternating over rounds (median per transaction);
/// then N saves of a new record with a staged has-one child (one transaction each).
/// Also counts the threads the async ones create: Linux assigns every new thread the next
/// process id, so the system's last assigned id (`/proc/loadavg`) moves by at least the
/// number of threads created (plus whatever the rest of the machine started meanwhile).
enum AsyncTransactions {
    static func run(_ n: Int, runs: Int) throws { try runAsync { try await measure(n, runs: max(runs, 5)) } }

    private static func measure(_ n: Int, runs: Int) async throws {
        let memory = ArrayAdapter()
        let db = try BenchDatabase()
        let sqlite = try db.adapter()
        for (label, store) in [("ArrayAdapter", memory as any PersistenceAdapter), ("SQLite file", sqlite)] {
            var syncTimes: [Double] = []
            var asyncTimes: [Double] = []
            var idsAssigned: [Int] = []
            for _ in 0..<runs {
                let start = ContinuousClock.now
                try syncTransactions(n, store)
                syncTimes.append(perCall(ContinuousClock.now - start, n))
                let before = lastProcessID()
                let asyncStart = ContinuousClock.now
                for k in 0..<n {
                    try await store.transaction { _ in
                        let person = Person()
                        Fixture.fill(person, k)
                        try await person.save(to: store)
                    }
                }
                asyncTimes.append(perCall(ContinuousClock.now - asyncStart, n))
                if let before, let after = lastProcessID() { idsAssigned.append(after - before) }
            }
            let (sync, async) = (median(syncTimes), median(asyncTimes))
            print("one-record transactions, \(label), n = \(n), median of \(runs)")
            print(
                String(format: "  sync %8.0f ns/tx   async %8.0f ns/tx   async/sync %.2fx", sync, async, async / sync)
                    + "   process ids assigned during the async runs: \(idsAssigned.map(String.init).joined(separator: ", "))")
        }
        try await stagedSaves(n, sqlite, runs: runs)
        blackHole(db)
        var hops: [Double] = []
        let actor = QueueActor()
        for _ in 0..<runs {
            let start = ContinuousClock.now
            for _ in 0..<n { await actor.touch() }
            hops.append(perCall(ContinuousClock.now - start, n))
        }
        print(String(format: "  baseline: a no-op call on an actor with a dispatch-queue executor, and back: %6.0f ns", median(hops)))
    }

    /// New accounts saved with their settings staged (`account.settings = s`): the
    /// synchronous save's store transaction against the async save's async transaction.
    private static func stagedSaves(_ n: Int, _ store: any PersistenceAdapter, runs: Int) async throws {
        var syncTimes: [Double] = []
        var asyncTimes: [Double] = []
        for _ in 0..<runs {
            let start = ContinuousClock.now
            try syncStagedSaves(n, store)
            syncTimes.append(perCall(ContinuousClock.now - start, n))
            let asyncStart = ContinuousClock.now
            for k in 0..<n { try await stagedAccount(k).save(to: store) }
            asyncTimes.append(perCall(ContinuousClock.now - asyncStart, n))
        }
        let (sync, async) = (median(syncTimes), median(asyncTimes))
        print("save with a staged has-one child, SQLite file, n = \(n), median of \(runs)")
        print(String(format: "  sync %8.0f ns/save   async %8.0f ns/save   async/sync %.2fx", sync, async, async / sync))
    }

    /// The last process id the system assigned, or nil where `/proc/loadavg` is missing.
    private static func lastProcessID() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
        return text.split(separator: " ").last.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    private static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    private static func perCall(_ d: Duration, _ n: Int) -> Double {
        nanoseconds(d, per: n)
    }
}

/// Synchronous one-record transactions (a sync function: async code picks async forms).
private func syncTransactions(_ n: Int, _ store: any PersistenceAdapter) throws {
    for k in 0..<n {
        try store.transaction {
            let person = Person()
            Fixture.fill(person, k)
            try person.save(to: store)
        }
    }
}

/// A new account with its settings staged, for the next save to write both.
private func stagedAccount(_ k: Int) -> Account {
    let account = Account()
    account.name = "account \(k)"
    let settings = AccountSettings()
    settings.theme = k.isMultiple(of: 2) ? "dark" : "light"
    account.settings = settings
    return account
}

/// Synchronous staged saves (a sync function: async code picks async forms).
private func syncStagedSaves(_ n: Int, _ store: any PersistenceAdapter) throws {
    for k in 0..<n { try stagedAccount(k).save(to: store) }
}

/// The floor of an async transaction's cost: an actor on a dispatch queue (as an async
/// transaction's body is), called and left.
private actor QueueActor {
    private let executor = BenchQueueExecutor()
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    private var touches = 0
    func touch() { touches &+= 1 }
}

/// `@unchecked Sendable`: the queue is set once and is thread-safe.
private final class BenchQueueExecutor: SerialExecutor, @unchecked Sendable {
    private let queue = DispatchQueue(label: "bench.queue")
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
