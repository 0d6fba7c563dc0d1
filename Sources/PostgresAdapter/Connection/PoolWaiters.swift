import Foundation

/// The async acquirers of a ``ConnectionPool`` waiting for a connection, first come first
/// served, each until its deadline.
///
/// One timer per pool, armed for the oldest waiter's deadline, times waiters out — not one
/// `asyncAfter` per waiter, which under load left thousands of dispatch timers pending
/// (each firing long after its waiter was served) and cost every acquire an allocation.
/// Waiters share the pool's acquire timeout, so deadlines grow from front to back and the
/// timer only ever looks at the front.
struct PoolWaiters {
    typealias Continuation = CheckedContinuation<PGConnection?, any Error>
    private struct Entry {
        let id: UInt64
        let deadline: DispatchTime
        let continuation: Continuation
    }

    /// Waiters in arrival order from `head`; a cancelled waiter leaves a hole (nil).
    private var entries: [Entry?] = []
    private var head = 0
    /// Waiters still queued (holes not counted).
    private(set) var count = 0
    /// The timer, while armed.
    var timer: (any DispatchSourceTimer)?

    var isEmpty: Bool { count == 0 }

    mutating func append(_ id: UInt64, deadline: DispatchTime, _ continuation: Continuation) {
        entries.append(Entry(id: id, deadline: deadline, continuation: continuation))
        count += 1
    }

    /// The oldest waiter, taken off the queue.
    mutating func popFirst() -> Continuation? {
        while head < entries.count {
            let entry = entries[head]
            entries[head] = nil
            head += 1
            if let entry {
                count -= 1
                compact()
                return entry.continuation
            }
        }
        compact()
        return nil
    }

    /// The waiter `id`, taken off the queue (cancelled), if still queued.
    mutating func remove(_ id: UInt64) -> Continuation? {
        guard let index = entries[head...].firstIndex(where: { $0?.id == id }), let entry = entries[index] else { return nil }
        entries[index] = nil
        count -= 1
        compact()
        return entry.continuation
    }

    /// The waiters whose deadline is `now` or earlier, taken off the queue.
    mutating func popExpired(at now: DispatchTime) -> [Continuation] {
        var expired: [Continuation] = []
        while head < entries.count {
            if let entry = entries[head] {
                guard entry.deadline <= now else { break }
                expired.append(entry.continuation)
                count -= 1
            }
            entries[head] = nil
            head += 1
        }
        compact()
        return expired
    }

    /// The oldest queued waiter's deadline.
    var nextDeadline: DispatchTime? {
        entries[head...].lazy.compactMap { $0?.deadline }.first
    }

    /// Every waiter, taken off the queue (the pool closes).
    mutating func removeAll() -> [Continuation] {
        defer {
            entries = []
            head = 0
            count = 0
        }
        return entries[head...].compactMap { $0?.continuation }
    }

    /// Drops the consumed front once it is most of the storage.
    private mutating func compact() {
        if head == entries.count {
            entries.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64, head * 2 > entries.count {
            entries.removeFirst(head)
            head = 0
        }
    }
}
