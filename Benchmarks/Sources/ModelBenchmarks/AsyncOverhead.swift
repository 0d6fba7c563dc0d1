import ArrayAdapter
import Dispatch
import Foundation
import SQLiteAdapter

/// `--async N`: what the async API adds per call (find by id, sync vs async, on the memory
/// adapter), and concurrent async readers on SQLite against the same reads done one after
/// another synchronously.
enum AsyncOverhead {
    static func run(_ n: Int) throws { try runAsync { try await measure(n) } }

    private static func measure(_ n: Int) async throws {
        let (store, _) = try seededStore(n)
        func perCall(_ d: Duration) -> Double {
            nanoseconds(d, per: n)
        }
        let start = ContinuousClock.now
        var sum = try syncFinds((0..<n).map { Int64($0 + 1) }, store)
        let sync = perCall(ContinuousClock.now - start)
        let asyncStart = ContinuousClock.now
        for k in 0..<n { sum &+= try await Person.find(Int64(k + 1), in: store)?.age ?? 0 }
        let async = perCall(ContinuousClock.now - asyncStart)
        blackHole(sum)
        print("find by id, ArrayAdapter, n = \(n)")
        print(String(format: "  sync %8.0f ns/call   async %8.0f ns/call   added %8.0f ns/call", sync, async, async - sync))

        let records = try syncAll(store)
        let saveStart = ContinuousClock.now
        try syncSaves(records)
        let syncSave = perCall(ContinuousClock.now - saveStart)
        let asyncSaveStart = ContinuousClock.now
        for record in records {
            record.age += 1
            try await record.save()
        }
        let asyncSave = perCall(ContinuousClock.now - asyncSaveStart)
        print("save (update one column), ArrayAdapter, n = \(n)")
        print(String(format: "  sync %8.0f ns/call   async %8.0f ns/call   added %8.0f ns/call", syncSave, asyncSave, asyncSave - syncSave))
        ObservationCost.measure(records)

        let db = try BenchDatabase(seed: n)
        let sqlite = try db.adapter()
        let ids = Fixture.lookupIDs(Swift.min(n, 10_000), n: n)
        let sequentialStart = ContinuousClock.now
        sum &+= try syncFinds(ids, sqlite)
        let sequential = ContinuousClock.now - sequentialStart
        let tasks = 8
        let concurrentStart = ContinuousClock.now
        let total = try await withThrowingTaskGroup(of: Int.self) { group in
            for t in 0..<tasks {
                group.addTask {
                    var part = 0
                    for (k, id) in ids.enumerated() where k % tasks == t { part &+= try await Person.find(id, in: sqlite)?.age ?? 0 }
                    return part
                }
            }
            return try await group.reduce(0, &+)
        }
        let concurrent = ContinuousClock.now - concurrentStart
        blackHole(total)
        blackHole(db)
        print("\(ids.count) finds on SQLite: sync one after another \(sequential), async from \(tasks) tasks \(concurrent)")
    }
}

/// Synchronous finds (a sync function: inside async code the async overloads win).
private func syncFinds(_ ids: [Int64], _ store: any PersistenceAdapter) throws -> Int {
    var sum = 0
    for id in ids { sum &+= try Person.find(id, in: store)?.age ?? 0 }
    return sum
}

/// Every record, synchronously.
private func syncAll(_ store: any PersistenceAdapter) throws -> [Person] { try Person.all(in: store) }

/// One update per record, synchronously.
private func syncSaves(_ records: [Person]) throws {
    for record in records {
        record.age += 1
        try record.save()
    }
}

/// Runs an async benchmark from the synchronous entry point and waits for it.
func runAsync(_ body: @escaping @Sendable () async throws -> Void) throws {
    let done = DispatchSemaphore(value: 0)
    let failure = FailureBox()
    Task {
        do { try await body() } catch { failure.set(error) }
        done.signal()
    }
    done.wait()
    if let error = failure.get() { throw error }
}

/// An error carried out of the benchmark's task.
private final class FailureBox: @unchecked Sendable {
    // `@unchecked Sendable`: `error` is only touched while holding `lock`.
    private let lock = NSLock()
    private var error: (any Error)?
    func set(_ error: any Error) { lock.withLock { self.error = error } }
    func get() -> (any Error)? { lock.withLock { error } }
}
