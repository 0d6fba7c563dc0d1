import Foundation

/// The threads that run blocking store work for the async API, so that it never runs on
/// Swift concurrency's cooperative pool or on the main actor.
///
/// Adapters are synchronous and thread-safe (see Docs/Architecture.md); an async call
/// resolves its store in the caller's context, hands the blocking part to one of these
/// threads, and suspends until it is done. The pool is process-wide and fixed in size
/// (``ModelConcurrency/blockingThreadCount``, default `max(2, active processors)`):
/// adapters keep their own write serialisation and reader pools, so the pool only bounds
/// how many blocking calls run at once. Jobs start in submission order.
///
/// Cancellation: a job whose task is cancelled before a thread picks it up throws
/// `CancellationError` without running; a job that has started runs to the end (a write
/// is then committed or rolled back by the adapter as a whole, never left half-done),
/// unless the adapter watches ``BlockingCancellation/current`` (RESTAdapter cancels its
/// request in flight).
package final class BlockingPool: Sendable {
    /// The process-wide pool.
    package static let shared = BlockingPool(threads: ModelConcurrency.blockingThreadCount)

    private let state: JobQueue
    /// How many threads run jobs.
    package let threadCount: Int

    package init(threads: Int) {
        threadCount = max(1, threads)
        state = JobQueue()
        for k in 0..<threadCount {
            let queue = state
            let name = "SwiftModel.b\(k)"  // Linux thread names have at most 15 characters
            let thread = Thread {
                Thread.current.name = name  // set from the thread itself: on Linux that names the OS thread
                queue.work()
            }
            thread.name = name
            thread.start()
        }
    }

    /// Runs blocking work on `store` (a read or a write): inline when that cannot block
    /// a shared thread, else on a pool thread. Cancellation is checked first either way.
    ///
    /// Inside a transaction on `store`, the work is part of it: an async transaction's
    /// work runs on the transaction's executor (inline when the caller is on it already,
    /// else after a hop there, so a call from another isolation joins it); a synchronous
    /// transaction's runs inline. Outside one, an in-memory store whose lock is free now
    /// runs it inline (``InlineRunningAdapter``).
    ///
    /// Outside a transaction, the call is first admitted by the store's ``StoreLock``
    /// (``AdmittingAdapter``; for other adapters, the lock of their thread-owned async
    /// transactions): while an async transaction owns the store, the caller suspends
    /// instead of parking a pool thread. `reads`: the work only reads, which a store may
    /// admit without waiting (SQLite's reader connections).
    nonisolated(nonsending) package func run<T>(
        on store: any PersistenceAdapter, reads: Bool = false, _ body: @escaping @Sendable () throws -> sending T
    ) async throws -> sending T {
        try Task.checkCancellation()
        if let handle = TransactionHandle.current(for: ObjectIdentifier(store)) {
            if let scope = handle.scope, !scope.isRunningHere { return try await scope.perform(body) }
            return try body()
        }
        let body = RegistryScope.carried(body)
        if let inline = store as? any InlineRunningAdapter, let result = try inline.runInlineIfFree(body) {
            return result
        }
        let admission: StoreLock?
        if let admitting = store as? any AdmittingAdapter {
            admission = admitting.admission(reads: reads)
        } else {
            admission = ThreadTransactions.lock(for: store)
        }
        guard let admission else { return try await run(body) }
        try await admission.enterCall()
        defer { admission.leaveCall() }
        return try await run(body)
    }

    /// Runs `body` on a pool thread and returns its result to the suspended caller.
    ///
    /// `body` must not touch records the caller holds: what it returns is `sending`, so it
    /// may create records (they belong to the caller once returned).
    package func run<T>(_ body: @escaping @Sendable () throws -> sending T) async throws -> sending T {
        try Task.checkCancellation()
        let job = Job()
        let cancellation = BlockingCancellation()
        let result = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                job.install { cancelled in
                    if cancelled {
                        continuation.resume(throwing: CancellationError())
                        return
                    }
                    do {
                        let value = try cancellation.whileCurrent(body)
                        job.publish()
                        continuation.resume(returning: value)
                    } catch {
                        job.publish()
                        continuation.resume(throwing: error)
                    }
                }
                state.enqueue(job)
            }
        } onCancel: {
            job.cancel()
            cancellation.cancel()
        }
        job.publish()  // acquires what the pool thread released: see `Job.publish()`
        return result
    }
}

/// One unit of work and whether its task was cancelled before it started.
///
/// `@unchecked Sendable`: `work` and `cancelled` are only read and written while holding
/// `lock`.
private final class Job: @unchecked Sendable {
    private let lock = NSLock()
    private var work: (@Sendable (Bool) -> Void)?
    private var cancelled = false

    func install(_ work: @escaping @Sendable (Bool) -> Void) {
        lock.withLock { self.work = work }
    }

    func cancel() {
        lock.withLock { cancelled = true }
    }

    /// Runs the work once, telling it whether the task was cancelled before now.
    func start() {
        let (work, cancelled) = lock.withLock {
            defer { self.work = nil }
            return (self.work, self.cancelled)
        }
        work?(cancelled)
    }

    /// Takes and releases the job's lock. The pool thread calls it after making the result
    /// (before resuming the caller) and the caller after resuming: the result's memory
    /// then happens-before the caller's reads in a way Thread Sanitizer can see (the
    /// continuation's own hand-off runs in the uninstrumented concurrency runtime).
    func publish() {
        lock.withLock {}
    }
}

/// The pool's FIFO of jobs and the condition its threads wait on.
///
/// `@unchecked Sendable`: `jobs` is only touched while holding `condition`.
private final class JobQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var head = 0

    func enqueue(_ job: Job) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// A pool thread's loop: take the oldest job, run it, repeat (forever: the pool lives
    /// as long as the process).
    func work() {
        while true {
            condition.lock()
            while head == jobs.count { condition.wait() }
            let job = jobs[head]
            head += 1
            if head > 1024, head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            condition.unlock()
            job.start()
        }
    }
}

/// An adapter whose reads and writes are memory work under one lock: the async API runs
/// them inline, on the caller's thread, when that lock is free — a try-lock, which never
/// waits — and on the blocking pool otherwise (a transaction on another thread holds it).
package protocol InlineRunningAdapter: PersistenceAdapter {
    /// Runs `body` holding the store's lock if it is free now; nil when taking it would wait.
    func runInlineIfFree<R>(_ body: () throws -> sending R) rethrows -> sending R?
}

/// An adapter whose calls wait while a transaction owns it: the ``StoreLock`` the async
/// API admits its calls by (see ``BlockingPool/run(on:reads:_:)``).
package protocol AdmittingAdapter: PersistenceAdapter {
    /// The lock a call of this kind waits on (nil: it never waits for a transaction).
    func admission(reads: Bool) -> StoreLock?
}

/// The admission locks of adapters whose async transactions belong to threads (third-party
/// adapters that implement only ``PersistenceAdapter/withTransaction(_:)``): such a
/// transaction owns its store's lock here, and async calls on the store are admitted by
/// it (see ``BlockingPool/run(on:reads:_:)``), since the adapter's own locks would park a
/// pool thread.
package enum ThreadTransactions {
    /// One lock per store address, kept once made: an idle lock (no owner, no call) is the
    /// same as a new one, so a store at a reused address inherits nothing.
    private static let locks = Locked<[ObjectIdentifier: StoreLock]>([:])

    /// The lock of `store`, made on first use.
    package static func lock(for store: any PersistenceAdapter) -> StoreLock {
        let key = ObjectIdentifier(store)
        return locks.withLock { locks in
            if let lock = locks[key] { return lock }
            let lock = StoreLock()
            locks[key] = lock
            return lock
        }
    }
}

/// Settings of the async API's threads.
public enum ModelConcurrency {
    /// How many threads run blocking store work for async calls: `max(2, active
    /// processors)`, or the `SWIFTMODEL_BLOCKING_THREADS` environment variable when it is
    /// a number from 1 to 256. Fixed when the first async call starts.
    public static var blockingThreadCount: Int {
        if let text = ProcessInfo.processInfo.environment["SWIFTMODEL_BLOCKING_THREADS"], let count = Int(text),
            (1...256).contains(count)
        {
            return count
        }
        return max(2, ProcessInfo.processInfo.activeProcessorCount)
    }
}
