/// The state of a ``ConnectionPool`` and every decision it makes, as one value: no lock,
/// no clock, no I/O. The pool keeps it behind one lock and carries out what each step
/// returns (open a connection, ping one, close one, resume a waiter); unit tests drive it
/// directly, with their own instants.
///
/// Blocking and async acquirers wait in one first-come-first-served queue (`Waiter` is
/// the pool's handle for either); each has a deadline, and ``expire(at:)`` takes the ones
/// past it.
package struct PoolState<Connection: AnyObject, Waiter> {
    package typealias Instant = ContinuousClock.Instant

    /// What an acquire is granted: a connection to use, or a counted slot to open one in.
    package enum Grant {
        case connection(Connection)
        case slot
    }

    /// What ``acquire(now:deadline:waiter:)`` decided.
    package enum Acquire {
        /// Use this idle connection; `ping` it first when it may have gone stale.
        case lend(Connection, ping: Bool)
        /// Open a connection in the slot now counted (give it back with ``discard()`` on
        /// failure).
        case open
        /// The waiter was queued: it is granted something later, or expires.
        case queued
        /// Every connection is lent and the acquire cannot wait (no deadline).
        case exhausted
        /// The pool is closed.
        case closed
    }

    /// What ``release(_:healthy:inTransaction:broken:now:)`` decided.
    package enum Release {
        /// Kept idle.
        case kept
        /// Hand it to this waiter.
        case handOver(Connection, to: Waiter)
        /// Close it; when `slotTo` is set, its slot goes to that waiter (which opens one).
        case close(Connection, slotTo: Waiter?)
    }

    private struct Idle {
        let connection: Connection
        let since: Instant
    }

    private struct Queued {
        let id: UInt64
        let deadline: Instant
        let waiter: Waiter
    }

    package let maximum: Int
    package let healthCheckInterval: Duration
    private var idle: [Idle] = []
    /// Connections counted against the maximum: idle, lent, and being opened.
    package private(set) var open = 0
    package private(set) var isClosed = false
    /// Connections idle since before this are pinged before they are lent (set when one is
    /// found broken: the server may have restarted).
    private var suspectBefore: Instant
    private var queue: [Queued] = []
    private var head = 0
    private var lastID: UInt64 = 0

    package init(maximum: Int, healthCheckInterval: Duration, now: Instant) {
        self.maximum = max(1, maximum)
        self.healthCheckInterval = healthCheckInterval
        suspectBefore = now
    }

    /// How many acquirers wait.
    package var waiting: Int { queue.count - head }

    /// How many connections are idle.
    package var idleCount: Int { idle.count }

    /// The earliest deadline of a waiter, for the pool's timer.
    package var nextDeadline: Instant? { queue[head...].lazy.map(\.deadline).min() }

    /// An acquire: an idle connection (the most recently used), else a slot while below
    /// the maximum, else the queue until `deadline` (nil: do not wait). Returns the queued
    /// waiter's id with `.queued` (for ``cancel(_:)``).
    package mutating func acquire(now: Instant, deadline: Instant?, waiter: @autoclosure () -> Waiter) -> (Acquire, id: UInt64?) {
        if isClosed { return (.closed, nil) }
        if let last = idle.popLast() {
            let stale = last.since < suspectBefore || now - last.since >= healthCheckInterval
            return (.lend(last.connection, ping: stale), nil)
        }
        if open < maximum {
            open += 1
            return (.open, nil)
        }
        guard let deadline else { return (.exhausted, nil) }
        lastID += 1
        queue.append(Queued(id: lastID, deadline: deadline, waiter: waiter()))
        return (.queued, lastID)
    }

    /// A lent connection comes back. `healthy`: its session is usable; `inTransaction`: it
    /// was left inside a transaction; `broken`: it failed (rather than being closed on
    /// purpose), so idle connections are suspect from now on.
    package mutating func release(_ connection: Connection, healthy: Bool, inTransaction: Bool, broken: Bool, now: Instant) -> Release {
        if !healthy || inTransaction || isClosed {
            if broken { suspectBefore = now }
            return .close(connection, slotTo: discard())
        }
        if let waiter = popWaiter() { return .handOver(connection, to: waiter) }
        idle.append(Idle(connection: connection, since: now))
        return .kept
    }

    /// A counted connection is gone (closed, or never opened): its slot goes to the oldest
    /// waiter, which opens one, or is freed.
    package mutating func discard() -> Waiter? {
        if !isClosed, let waiter = popWaiter() { return waiter }
        open -= 1
        return nil
    }

    /// Takes waiter `id` off the queue (cancelled, or its own wait timed out) if it is
    /// still there; nil when it was granted something meanwhile.
    package mutating func cancel(_ id: UInt64) -> Waiter? {
        guard let index = queue[head...].firstIndex(where: { $0.id == id }) else { return nil }
        let waiter = queue.remove(at: index).waiter
        compact()
        return waiter
    }

    /// Takes the waiters whose deadline is `now` or earlier.
    package mutating func expire(at now: Instant) -> [Waiter] {
        var expired: [Waiter] = []
        var kept: [Queued] = []
        for entry in queue[head...] {
            if entry.deadline <= now { expired.append(entry.waiter) } else { kept.append(entry) }
        }
        if !expired.isEmpty {
            queue = kept
            head = 0
        }
        return expired
    }

    /// Closes the pool: later acquires fail; returns the idle connections to close (their
    /// slots freed) and the waiters to fail. Lent connections count until they come back.
    package mutating func close() -> (idle: [Connection], waiters: [Waiter]) {
        isClosed = true
        let connections = idle.map(\.connection)
        open -= idle.count
        idle = []
        let waiters = queue[head...].map(\.waiter)
        queue = []
        head = 0
        return (connections, waiters)
    }

    private mutating func popWaiter() -> Waiter? {
        guard head < queue.count else { return nil }
        let waiter = queue[head].waiter
        head += 1
        compact()
        return waiter
    }

    private mutating func compact() {
        if head == queue.count {
            queue.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64, head * 2 > queue.count {
            queue.removeFirst(head)
            head = 0
        }
    }
}

extension PoolState.Grant: Sendable where Connection: Sendable {}
