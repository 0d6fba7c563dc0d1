import Foundation
import Synchronization

/// The thread of one async transaction, and the serial executor its body is isolated to.
///
/// An adapter whose transactions belong to the thread that opened them (one that only
/// implements `withTransaction`) gets a thread per async transaction: the thread opens
/// the store transaction, then runs the body's jobs — every synchronous part of the body,
/// between its suspension points — until the body is done, then commits or rolls back. Work the body leaves behind (a task it started that
/// outlives it) runs afterwards on a serial queue, outside the transaction.
///
/// The adapters in this package run an async transaction on a ``QueueExecutor`` instead
/// and create no thread.
///
/// `@unchecked Sendable`: `jobs`, `head`, `stopped`, `looping` and `overflow` are only
/// touched while holding `condition`.
final class TransactionThread: SerialExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var head = 0
    private var stopped = false
    private var looping = true
    private var overflow: DispatchQueue?

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        if looping {
            jobs.append(job)
            condition.signal()
            condition.unlock()
            return
        }
        let queue = overflow ?? DispatchQueue(label: "SwiftModel.transaction.after")
        overflow = queue
        condition.unlock()
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    /// The thread running the jobs (0 before ``runJobs()``).
    private let runner = Atomic<UInt>(0)

    /// Whether the calling code runs on this executor's thread.
    var isCurrent: Bool { runner.load(ordering: .relaxed) == currentThreadID() }

    /// Runs jobs on the calling thread until ``stop()`` and the queue is empty.
    func runJobs() {
        runner.store(currentThreadID(), ordering: .relaxed)
        let executor = asUnownedSerialExecutor()
        while true {
            condition.lock()
            while head == jobs.count, !stopped { condition.wait() }
            if head == jobs.count {
                looping = false
                jobs = []
                condition.unlock()
                return
            }
            let job = jobs[head]
            head += 1
            condition.unlock()
            job.runSynchronously(on: executor)
        }
    }

    /// Ends ``runJobs()`` once the jobs queued by now have run.
    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }
}

/// A result delivered once from a thread to one waiting task.
///
/// `@unchecked Sendable`: `result`, `waiter` and `delivered` are only touched while holding `lock`.
final class OneShot: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<Void, any Error>?
    private var waiter: CheckedContinuation<Void, any Error>?
    private var delivered = false

    /// Delivers `outcome`; later calls do nothing.
    func fulfill(_ outcome: Result<Void, any Error>) {
        lock.lock()
        if delivered {
            lock.unlock()
            return
        }
        delivered = true
        if let waiter {
            self.waiter = nil
            lock.unlock()
            waiter.resume(with: outcome)
        } else {
            result = outcome
            lock.unlock()
        }
    }

    func wait() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            lock.lock()
            if let result {
                lock.unlock()
                continuation.resume(with: result)
            } else {
                waiter = continuation
                lock.unlock()
            }
        }
        lock.withLock {}  // acquire what `fulfill` released, visibly to Thread Sanitizer
    }
}
