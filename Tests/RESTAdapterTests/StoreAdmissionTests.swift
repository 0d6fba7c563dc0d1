import ArrayAdapter
import Foundation
import ModelCore
import RESTAdapter
import SQLiteAdapter
import Synchronization
import TestSupport
import Testing

/// No store wait parks a thread of the shared blocking pool: async writes that meet an
/// async transaction suspend until it ends, so the transaction's own awaits (another
/// store's reads, which need a pool thread; a REST call) still get through — on every
/// kind of store, including a third-party one whose transactions belong to threads.
@Suite(.runsOffThePool, .timeLimit(.minutes(1))) struct StoreAdmissionTests {
    final class Note: Model {
        @Column var text: String = ""
        init() {}
    }

    /// A synchronous adapter in the shape a third party writes one: no
    /// `beginTransaction(for:)`, so its async transactions hold `withTransaction` open on a
    /// thread; one lock of its own serialises every call, so a call from another thread
    /// waits for the transaction to end.
    final class ThreadLockedAdapter: PersistenceAdapter, @unchecked Sendable {
        // `@unchecked Sendable`: `base` is only used holding `lock`.
        private let base = ArrayAdapter()
        private let lock = NSRecursiveLock()

        func prepare(_ schema: ModelSchema) throws { try lock.withLock { try base.prepare(schema) } }
        func close() throws { try lock.withLock { try base.close() } }
        func insert(_ row: [ModelValue], into schema: ModelSchema) throws -> ModelValue {
            try lock.withLock { try base.insert(row, into: schema) }
        }
        func update(_ row: [ModelValue], changedColumns: [Int], in schema: ModelSchema) throws {
            try lock.withLock { try base.update(row, changedColumns: changedColumns, in: schema) }
        }
        func delete(id: ModelValue, from schema: ModelSchema) throws -> Bool { try lock.withLock { try base.delete(id: id, from: schema) } }
        func find(id: ModelValue, in schema: ModelSchema) throws -> [ModelValue]? { try lock.withLock { try base.find(id: id, in: schema) } }
        func fetch(_ query: StoreQuery) throws -> [[ModelValue]] { try lock.withLock { try base.fetch(query) } }
        func count(_ query: StoreQuery) throws -> Int { try lock.withLock { try base.count(query) } }
        func delete(_ query: StoreQuery) throws -> Int { try lock.withLock { try base.delete(query) } }
        func update(_ query: StoreQuery, set values: [Int: ModelValue]) throws -> Int {
            try lock.withLock { try base.update(query, set: values) }
        }
        func aggregate(_ query: StoreQuery) throws -> [AggregateGroup] { try lock.withLock { try base.aggregate(query) } }
        func withTransaction<R>(_ body: () throws -> R) throws -> R { try lock.withLock { try base.withTransaction(body) } }
    }

    private static func store(_ kind: String, in directory: URL) throws -> any PersistenceAdapter {
        switch kind {
        case "array": ArrayAdapter()
        case "sqlite": try SQLiteAdapter(path: directory.appendingPathComponent("a.sqlite").path)
        default: ThreadLockedAdapter()
        }
    }

    @Test(arguments: ["array", "sqlite", "thread-owned"])
    func writesQueuedBehindAnAsyncTransactionLeaveThePoolToItsAwaits(_ kind: String) async throws {
        try await withTemporaryDirectory { directory in try await writesQueueBehindATransaction(kind, in: directory) }
    }

    private func writesQueueBehindATransaction(_ kind: String, in directory: URL) async throws {
        let storeA = try Self.store(kind, in: directory)
        // Store B's reads need a pool thread (SQLite never runs inline).
        let storeB = try SQLiteAdapter(path: directory.appendingPathComponent("b.sqlite").path)
        let seed = Note()
        seed.text = "b"
        try await seed.save(to: storeB)
        let f = try RESTFixture()
        f.server.seed("companies", [["name": "Acme"]])
        let rest = f.adapter

        // Four times as many writes as the pool has threads (8 or more): parked on the
        // store, they would hold every pool thread, and B's read below could never run.
        let writes = max(8, BlockingPool.shared.threadCount * 4)
        let inside = AsyncSignal()
        let proceed = AsyncSignal()
        let transaction = Task(executorPreference: OffThePool.executor) {
            try await storeA.transaction { _ in
                inside.fire()
                await proceed.wait()
                let read = try await Note.query().using(storeB).count()
                let company = try await Company.find(1, in: rest)?.name
                let note = Note()
                note.text = "inside"
                try await note.save(to: storeA)
                return "\(read) \(company ?? "none")"
            }
        }
        await inside.wait()
        let writers = Task(executorPreference: OffThePool.executor) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for k in 0..<writes {
                    group.addTask {
                        let note = Note()
                        note.text = "outside \(k)"
                        try await note.save(to: storeA)
                    }
                }
                try await group.waitForAll()
            }
        }
        // Let the writes reach the store (where, parked, they would take the pool).
        try await Task.sleep(for: .milliseconds(300))
        proceed.fire()
        #expect(try await transaction.value == "1 Acme")
        try await writers.value
        #expect(try await Note.query().using(storeA).count() == writes + 1)
    }

    @Test func anAsyncTransactionWaitsForTheCallsAdmittedBeforeIt() async throws {
        let lock = StoreLock()
        try await lock.enterCall()
        let store = ArrayAdapter()
        let handle = TransactionHandle(store: store, outer: nil)
        let owned = AsyncSignal()
        let acquiring = Task(executorPreference: OffThePool.executor) {
            await lock.acquire(handle)
            owned.fire()
        }
        try await Task.sleep(for: .milliseconds(100))
        #expect(!owned.hasFired, "the transaction does not take the store while an admitted call runs")
        // A call arriving now queues behind the waiting transaction.
        let late = Task(executorPreference: OffThePool.executor) {
            try await lock.enterCall()
            return owned.hasFired
        }
        lock.leaveCall()
        await acquiring.value
        #expect(owned.hasFired)
        try await Task.sleep(for: .milliseconds(100))
        lock.release(handle)
        #expect(try await late.value, "the later call was admitted only after the transaction")
        lock.leaveCall()
        handle.close()
    }

    @Test func aCallCancelledWhileItWaitsForATransactionLeavesAtOnce() async throws {
        let store = ArrayAdapter()
        let inside = AsyncSignal()
        let proceed = AsyncSignal()
        let transaction = Task(executorPreference: OffThePool.executor) {
            try await store.transaction { _ in
                inside.fire()
                await proceed.wait()
            }
        }
        await inside.wait()
        let waiting = Task(executorPreference: OffThePool.executor) {
            let note = Note()
            note.text = "cancelled while waiting"
            try await note.save(to: store)
            return note.isNew
        }
        try await Task.sleep(for: .milliseconds(100))
        waiting.cancel()
        let cancelled = ContinuousClock.now
        await #expect(throws: CancellationError.self) { _ = try await waiting.value }
        #expect(ContinuousClock.now - cancelled < .seconds(5), "it did not wait for the transaction to end")
        proceed.fire()
        try await transaction.value
        #expect(try await Note.query().using(store).count() == 0)
        // The store admits calls as before.
        let note = Note()
        note.text = "after"
        try await note.save(to: store)
        #expect(try await Note.query().using(store).count() == 1)
    }
}

/// A one-time signal that tasks await.
final class AsyncSignal: Sendable {
    private let state = Mutex<(fired: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    var hasFired: Bool { state.withLock { $0.fired } }

    func fire() {
        let waiters = state.withLock { state in
            state.fired = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let fired = state.withLock { state in
                if !state.fired { state.waiters.append(continuation) }
                return state.fired
            }
            if fired { continuation.resume() }
        }
    }
}
