import ArrayAdapter
import Foundation

import Testing

/// Where async work runs, and cancellation. Serialized: these tests fill the shared
/// blocking pool on purpose.
@Suite(.serialized) struct AsyncThreadingTests {
    @Test func cancelledBeforeItStartsThrowsAndNeverRuns() async throws {
        let store = GateAdapter()
        _ = try AsyncStores.seed(store)
        let threads = ModelConcurrency.blockingThreadCount
        store.blocking.withLock { $0 = true }
        // Occupy every pool thread with a blocked read.
        let blockers = (0..<threads).map { _ in Task { try await Book.count(in: store) } }
        while store.reads.withLock({ $0 }) < threads { try await Task.sleep(for: .milliseconds(5)) }
        // This call waits in the pool's queue; cancel it there.
        let queued = Task { try await Book.all(in: store).count }  // records stay in the task; a count leaves it
        try await Task.sleep(for: .milliseconds(50))
        queued.cancel()
        store.blocking.withLock { $0 = false }
        store.release(threads)
        for blocker in blockers { #expect(try await blocker.value == 3) }
        await #expect(throws: CancellationError.self) { try await queued.value }
        #expect(store.reads.withLock { $0 } == threads)  // the cancelled read never reached the store
        // Already cancelled: throws before anything is queued.
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await Book.count(in: store)
        }
        await #expect(throws: CancellationError.self) { try await early.value }
        #expect(store.reads.withLock { $0 } == threads)
    }

    @Test func sixtyFourBlockingReadsDoNotStarveOtherTasks() async throws {
        let store = GateAdapter()
        _ = try AsyncStores.seed(store)
        store.delay.withLock { $0 = 0.02 }  // every read blocks its thread for 20 ms
        let finished = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<64 {
                group.addTask {
                    _ = try await Book.count(in: store)
                    finished.withLock { $0 += 1 }
                }
            }
            // Reads are now queued on the blocking pool (64 × 20 ms over a few threads). A
            // task on the cooperative pool still runs at once: the reads do not hold its threads.
            let probe = Task { () -> Int in
                var sum = 0
                for k in 0..<1_000 { sum &+= k }
                return finished.withLock { $0 }
            }
            let doneWhenProbeRan = await probe.value
            #expect(doneWhenProbeRan < 16, "the probe waited for the blocking reads: \(doneWhenProbeRan) of 64 done")
            try await group.waitForAll()
        }
        #expect(finished.withLock { $0 } == 64)
    }

    /// ArrayAdapter reads run inline only when its lock is free; while a transaction on
    /// another thread holds it they wait on the pool, not on cooperative threads.
    @Test func inMemoryReadsNeverWaitForALockOnTheCooperativePool() async throws {
        let store = ArrayAdapter()
        _ = try AsyncStores.seed(store)
        #expect(try await Book.count(in: store) == 3)  // uncontended: inline
        let holding = Counter(), released = Counter(), probed = Counter()
        // The holder keeps the lock until the probe has run (or 10 s, should reads hold
        // every cooperative thread), so a slow machine cannot fail the test by timing.
        let holder = Thread {
            try? store.transaction {
                _ = try Book.create(["title": "Zola", "pages": 99], in: store)
                holding.withLock { $0 = 1 }
                let deadline = Date().addingTimeInterval(10)
                while probed.withLock({ $0 }) == 0, Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
            }
            released.withLock { $0 = 1 }
        }
        holder.start()
        while holding.withLock({ $0 }) == 0 { try await Task.sleep(for: .milliseconds(2)) }
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 { group.addTask { try await Book.count(in: store) } }
            let probe = Task { () -> Int in
                let seen = released.withLock { $0 }
                probed.withLock { $0 = 1 }
                return seen
            }
            #expect(await probe.value == 0, "a read blocked a cooperative thread on the adapter's lock")
            for try await count in group { #expect(count == 4) }  // after the commit
        }
    }
}

/// A shared counter for tasks.
final class Counter: Sendable {
    private let value = Guarded(0)
    func withLock<R>(_ body: (inout Int) -> R) -> R { value.withLock(body) }
}
