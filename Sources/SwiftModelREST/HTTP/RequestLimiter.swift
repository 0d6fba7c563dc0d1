import Foundation

/// At most ``limit`` requests of one adapter in flight (``RESTConfiguration/maxConcurrentRequests``).
///
/// A request past the limit waits for a slot in arrival order: an async caller suspends
/// (holding no thread, and leaving the queue with `CancellationError` when its task is
/// cancelled), a synchronous caller blocks its own thread. A released slot goes straight
/// to the oldest waiter.
///
/// `@unchecked Sendable`: `inUse`, `waiters`, `head`, `pending`, `abandoned` and
/// `nextTicket` are only read and written while holding `lock`.
final class RequestLimiter: @unchecked Sendable {
    let limit: Int
    private let lock = NSLock()
    private var inUse = 0
    private var waiters: [(ticket: Int, waiter: Waiter)] = []
    private var head = 0
    private var nextTicket = 0
    /// Tickets of async callers between finding no slot and joining the queue.
    private var pending = Set<Int>()
    /// Pending tickets whose task was cancelled before they joined the queue.
    private var abandoned = Set<Int>()

    private enum Waiter {
        case task(CheckedContinuation<Void, any Error>)
        case thread(DispatchSemaphore)
    }

    init(limit: Int) { self.limit = max(1, limit) }

    /// Takes a slot, suspending while all are in use.
    func acquire() async throws {
        // A task cancelled before it asks takes no slot, even a free one (under load it may
        // start only after the slot it would have waited for came free).
        try Task.checkCancellation()
        let ticket: Int? = lock.withLock {
            if inUse < limit, head == waiters.count {
                inUse += 1
                return nil
            }
            nextTicket += 1
            pending.insert(nextTicket)
            return nextTicket
        }
        guard let ticket else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                lock.lock()
                pending.remove(ticket)
                if abandoned.remove(ticket) != nil {
                    lock.unlock()
                    continuation.resume(throwing: CancellationError())
                } else if inUse < limit, head == waiters.count {
                    inUse += 1  // a slot came free since the ticket was taken
                    lock.unlock()
                    continuation.resume()
                } else {
                    waiters.append((ticket, .task(continuation)))
                    lock.unlock()
                }
            }
        } onCancel: {
            lock.lock()
            guard let index = waiters[head...].firstIndex(where: { $0.ticket == ticket }) else {
                if pending.contains(ticket) { abandoned.insert(ticket) }  // else it has its slot already
                lock.unlock()
                return
            }
            let (_, waiter) = waiters.remove(at: index)
            lock.unlock()
            if case .task(let continuation) = waiter { continuation.resume(throwing: CancellationError()) }
        }
    }

    /// Takes a slot, blocking the calling thread while all are in use.
    func acquireBlocking() {
        let semaphore: DispatchSemaphore? = lock.withLock {
            if inUse < limit, head == waiters.count {
                inUse += 1
                return nil
            }
            nextTicket += 1
            let semaphore = DispatchSemaphore(value: 0)
            waiters.append((nextTicket, .thread(semaphore)))
            return semaphore
        }
        semaphore?.wait()
    }

    /// Gives a slot back: to the oldest waiter, or to the pool.
    func release() {
        lock.lock()
        guard head < waiters.count else {
            inUse -= 1
            lock.unlock()
            return
        }
        let (_, waiter) = waiters[head]
        head += 1
        if head == waiters.count {
            waiters.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 256, head * 2 > waiters.count {
            waiters.removeFirst(head)
            head = 0
        }
        lock.unlock()
        switch waiter {
        case .task(let continuation): continuation.resume()
        case .thread(let semaphore): semaphore.signal()
        }
    }
}
