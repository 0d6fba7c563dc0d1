import Foundation

/// The thread of one async transaction, and the serial executor its body is isolated to.
///
/// Adapters' transactions belong to the thread that opened them (SQLite's writer, the
/// memory stores' locks, ``TransactionContext``). So an async transaction gets a thread
/// of its own: the thread opens the store transaction, then runs the body's jobs — every
/// synchronous part of the body, between its suspension points — until the body is done,
/// then commits or rolls back. Work the body leaves behind (a task it started that
/// outlives it) runs afterwards on a serial queue, outside the transaction.
///
/// Store work that the transaction's task starts elsewhere (an async call from another
/// isolation inside the body) is also handed to this thread: see ``perform(_:)``.
///
/// `@unchecked Sendable`: `jobs`, `head`, `stopped`, `looping` and `overflow` are only
/// touched while holding `condition`.
final class TransactionThread: SerialExecutor, @unchecked Sendable {
    private enum Work {
        case job(UnownedJob)
        case call(@Sendable () -> Void)
    }

    private let condition = NSCondition()
    private var jobs: [Work] = []
    private var head = 0
    private var stopped = false
    private var looping = true
    private var overflow: DispatchQueue?

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        if looping {
            jobs.append(.job(job))
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

    /// Runs jobs on the calling thread until ``stop()`` and the queue is empty.
    func runJobs() {
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
            let work = jobs[head]
            head += 1
            condition.unlock()
            switch work {
            case .job(let job): job.runSynchronously(on: executor)
            case .call(let body): body()
            }
        }
    }

    /// Runs `body` on this thread, inside the transaction, and returns its result; nil
    /// when the transaction has ended (the caller then runs it elsewhere).
    func perform<T>(_ body: @escaping @Sendable () throws -> sending T) async throws -> sending T? {
        let box = ResultBox<T>()
        let queued: Bool = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            condition.lock()
            guard looping, !stopped else {
                condition.unlock()
                continuation.resume(returning: false)
                return
            }
            jobs.append(
                .call {
                    box.set(Result { try body() })
                    continuation.resume(returning: true)
                })
            condition.signal()
            condition.unlock()
        }
        guard queued else { return nil }
        return try box.take()
    }

    /// Ends ``runJobs()`` once the jobs queued by now have run.
    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }
}

/// A result made on one thread and taken on another after a hand-off.
///
/// `@unchecked Sendable`: `result` is only touched while holding `lock`; the value is set
/// once by the thread that made it and taken once by the task it was made for.
private final class ResultBox<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<T, any Error>?

    func set(_ value: sending Result<T, any Error>) { lock.withLock { result = value } }

    func take() throws -> sending T {
        let taken = lock.withLock { () -> Result<T, any Error>? in
            defer { result = nil }
            return result
        }
        guard let taken else { throw CancellationError() }
        return try taken.get()
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
