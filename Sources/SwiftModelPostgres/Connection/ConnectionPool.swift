import Foundation
import ModelCore

/// Connections to one server, opened on demand up to a maximum and lent to one caller at
/// a time.
///
/// - Acquiring waits while every connection is lent out, up to the acquire timeout
///   (then ``PostgresError`` `.poolTimeout`): a blocking caller on its own thread, an
///   async caller suspended. Both wait in one first-come-first-served queue.
/// - A connection comes back healthy or is closed: one that broke (server restarted,
///   network) or was left inside a transaction is dropped, and the next acquire opens a
///   fresh one — so the pool recovers by itself after a server restart.
/// - A connection idle longer than the health-check interval is pinged (`SELECT 1`)
///   before it is lent.
///
/// Every decision is ``PoolState``'s, a value kept behind one lock; this class carries
/// them out. Time comes from one injected clock.
final class ConnectionPool: Sendable {
    typealias State = PoolState<PGConnection, PoolWaiter>

    private struct Guarded {
        var state: State
        /// The one timer expiring waiters, while any waits.
        var timer: (any DispatchSourceTimer)?
        /// Callers of ``close()`` waiting for lent connections to come back.
        var closing: [ThreadWaiter] = []
    }

    private let guarded: Locked<Guarded>
    private let now: @Sendable () -> ContinuousClock.Instant
    let conninfo: String
    let session: PGSession
    let maximum: Int
    let acquireTimeout: Duration
    let healthCheckInterval: Duration
    /// A name for messages ("primary", "replica 1").
    let role: String

    init(
        conninfo: String, session: PGSession, maximum: Int, acquireTimeout: Duration, healthCheckInterval: Duration, role: String,
        clock: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.conninfo = conninfo
        self.session = session
        self.maximum = max(1, maximum)
        self.acquireTimeout = acquireTimeout
        self.healthCheckInterval = healthCheckInterval
        self.role = role
        now = clock
        guarded = Locked(Guarded(state: State(maximum: maximum, healthCheckInterval: healthCheckInterval, now: clock())))
    }

    private var timeoutError: PostgresError {
        PostgresError(.poolTimeout, message: "no \(role) connection became free within \(acquireTimeout) (all \(maximum) in use)")
    }

    // MARK: Blocking

    /// Lends a connection, opening one when none is idle and the pool is below its maximum.
    func acquire() throws -> PGConnection {
        while true {
            let waiter = ThreadWaiter()
            let (decision, _) = guarded.withLock { g in
                let instant = now()
                let step = g.state.acquire(now: instant, deadline: instant + acquireTimeout, waiter: .thread(waiter))
                if case .queued = step.0 { armTimer(&g) }
                return step
            }
            let grant: State.Grant
            switch decision {
            case .closed: throw StoreError.closed("PostgreSQL store")
            case .exhausted: throw timeoutError
            case .lend(let connection, let stale):
                if !stale || ping(connection) { return connection }
                discard(connection)
                continue
            case .open: grant = .slot
            case .queued: grant = try waiter.wait().get()  // the pool's timer expires it at its deadline
            }
            switch grant {
            case .connection(let connection): return connection
            case .slot: return try openBlocking()
            }
        }
    }

    /// Lends a connection only if one is idle or may be opened now, without waiting.
    func acquireNow() -> PGConnection? {
        let decision = guarded.withLock { $0.state.acquire(now: now(), deadline: nil, waiter: .none).0 }
        switch decision {
        case .lend(let connection, let stale):
            if !stale || ping(connection) { return connection }
            discard(connection)
            return nil
        case .open: return try? openBlocking()
        case .queued, .exhausted, .closed: return nil
        }
    }

    private func openBlocking() throws -> PGConnection {
        do {
            return try PGConnection(conninfo: conninfo, session: session)
        } catch {
            discard(nil)
            throw error
        }
    }

    private func ping(_ connection: PGConnection) -> Bool {
        guard connection.isHealthy else { return false }
        return (try? connection.execute("SELECT 1")) != nil
    }

    /// Runs `body` with a lent connection.
    @inline(__always) func with<R>(_ body: (PGConnection) throws -> R) throws -> R {
        let connection = try acquire()
        defer { release(connection) }
        return try body(connection)
    }

    // MARK: Returning

    /// Takes a connection back: kept when healthy and outside a transaction, else closed.
    func release(_ connection: PGConnection) {
        // Broken (not closed on purpose, as a cancelled call does): the server may have
        // restarted, so idle connections are pinged before reuse.
        let broken = !connection.isHealthy && connection.handle != nil
        let (decision, drained) = guarded.withLock { g in
            let decision = g.state.release(
                connection, healthy: connection.isHealthy, inTransaction: connection.isInTransaction, broken: broken, now: now())
            return (decision, drainedClosers(&g))
        }
        switch decision {
        case .kept: break
        case .handOver(let connection, let waiter): waiter.grant(.success(.connection(connection)))
        case .close(let connection, let waiter):
            connection.close()
            waiter?.grant(.success(.slot))
        }
        for closer in drained { closer.grant(.success(.slot)) }
    }

    /// Closes a connection that will not come back (or frees the slot of one never
    /// opened): the slot goes to the oldest waiter, which opens one, or is freed.
    func discard(_ connection: PGConnection?) {
        connection?.close()
        let (waiter, drained) = guarded.withLock { g in (g.state.discard(), drainedClosers(&g)) }
        waiter?.grant(.success(.slot))
        for closer in drained { closer.grant(.success(.slot)) }
    }

    /// The ``close()`` callers to wake once the closed pool has no connection left.
    private func drainedClosers(_ g: inout Guarded) -> [ThreadWaiter] {
        guard g.state.isClosed, g.state.open == 0, !g.closing.isEmpty else { return [] }
        defer { g.closing = [] }
        return g.closing
    }

    /// Refuses new acquires (``StoreError`` `.closed`), closes idle connections, fails the
    /// waiters, then waits until every lent connection has come back (and been closed), so
    /// work in flight on other threads finishes first. Idempotent.
    func close() {
        let closer = ThreadWaiter()
        let (idle, waiters, lent) = guarded.withLock { g in
            let (idle, waiters) = g.state.close()
            g.timer?.cancel()
            g.timer = nil
            let lent = g.state.open > 0
            if lent { g.closing.append(closer) }
            return (idle, waiters, lent)
        }
        for connection in idle { connection.close() }
        for waiter in waiters { waiter.grant(.failure(StoreError.closed("PostgreSQL store"))) }
        if lent { _ = closer.wait() }
    }

    // MARK: Async

    /// Lends a connection without blocking: an idle one (pinged through `loop` when it has
    /// been idle past the health-check interval), a new one (opened without blocking,
    /// ``PGConnection/open(conninfo:session:on:timeout:)``, within the acquire timeout), or
    /// the next one released — the task suspends meanwhile, up to the acquire timeout (then
    /// ``PostgresError`` `.poolTimeout`).
    func acquire(on loop: PGEventLoop) async throws -> PGConnection {
        while true {
            try Task.checkCancellation()
            let grant: State.Grant
            let (decision, _) = guarded.withLock { $0.state.acquire(now: now(), deadline: nil, waiter: .none) }
            switch decision {
            case .closed: throw StoreError.closed("PostgreSQL store")
            case .lend(let connection, let stale):
                if !stale { return connection }
                if connection.isHealthy, (try? await connection.execute("SELECT 1", on: loop)) != nil { return connection }
                discard(connection)  // broken, or closed by a cancelled ping (the loop then throws)
                continue
            case .open: grant = .slot
            case .exhausted, .queued:
                let (waited, stale) = try await waitSuspended()
                if stale, case .connection(let connection) = waited {
                    if connection.isHealthy, (try? await connection.execute("SELECT 1", on: loop)) != nil { return connection }
                    discard(connection)
                    continue
                }
                grant = waited
            }
            switch grant {
            case .connection(let connection): return connection
            case .slot: return try await open(on: loop)
            }
        }
    }

    /// Queues the task and suspends until it is granted something, its deadline passes,
    /// it is cancelled or the pool closes (or takes what became free meanwhile; `stale`:
    /// an idle connection to ping first).
    private func waitSuspended() async throws -> (State.Grant, stale: Bool) {
        let id = Locked<UInt64?>(nil)
        let stale = Locked(false)
        let grant = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<State.Grant, any Error>) in
                let (decision, queued) = guarded.withLock { g in
                    let instant = now()
                    let step = g.state.acquire(now: instant, deadline: instant + acquireTimeout, waiter: .task(continuation))
                    if case .queued = step.0 { armTimer(&g) }
                    return step
                }
                switch decision {
                case .queued:
                    id.withLock { $0 = queued }
                    if Task.isCancelled, let queued, let waiter = guarded.withLock({ $0.state.cancel(queued) }) {
                        waiter.grant(.failure(CancellationError()))
                    }
                case .lend(let connection, let ping):
                    stale.withLock { $0 = ping }
                    continuation.resume(returning: .connection(connection))
                case .open: continuation.resume(returning: .slot)
                case .closed: continuation.resume(throwing: StoreError.closed("PostgreSQL store"))
                case .exhausted: continuation.resume(throwing: timeoutError)
                }
            }
        } onCancel: {
            if let queued = id.withLock({ $0 }), let waiter = guarded.withLock({ $0.state.cancel(queued) }) {
                waiter.grant(.failure(CancellationError()))
            }
        }
        return (grant, stale.withLock { $0 })
    }

    /// Opens a connection in a slot already counted, freeing the slot on failure.
    private func open(on loop: PGEventLoop) async throws -> PGConnection {
        do {
            return try await PGConnection.open(conninfo: conninfo, session: session, on: loop, timeout: acquireTimeout)
        } catch {
            discard(nil)
            throw error
        }
    }

    /// Runs `body` with a connection lent without blocking.
    func with<R>(on loop: PGEventLoop, _ body: (PGConnection) async throws -> R) async throws -> R {
        let connection = try await acquire(on: loop)
        do {
            let result = try await body(connection)
            release(connection)
            return result
        } catch {
            release(connection)
            throw error
        }
    }

    // MARK: Deadlines

    /// Arms the one waiter timer for the earliest deadline (call holding the lock).
    private func armTimer(_ g: inout Guarded) {
        guard let deadline = g.state.nextDeadline else { return }
        let after = DispatchTime.now() + max(0, (deadline - now()).seconds)
        if let timer = g.timer {
            timer.schedule(deadline: after, leeway: .milliseconds(10))
            return
        }
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: after, leeway: .milliseconds(10))
        timer.setEventHandler { [weak self] in self?.expireWaiters() }
        timer.resume()
        g.timer = timer
    }

    /// The timer fired: waiters past their deadline fail with `.poolTimeout`; the timer is
    /// re-armed for the next deadline, or stopped when none is left.
    private func expireWaiters() {
        let expired = guarded.withLock { g in
            let expired = g.state.expire(at: now())
            if g.state.waiting == 0 {
                g.timer?.cancel()
                g.timer = nil
            } else {
                armTimer(&g)
            }
            return expired
        }
        for waiter in expired { waiter.grant(.failure(timeoutError)) }
    }

    /// How many connections are open (idle and lent).
    var openCount: Int { guarded.withLock { $0.state.open } }
}

/// An acquirer waiting in a ``ConnectionPool``'s queue: a suspended task or a blocked
/// thread.
enum PoolWaiter: Sendable {
    case task(CheckedContinuation<PoolState<PGConnection, PoolWaiter>.Grant, any Error>)
    case thread(ThreadWaiter)
    /// Never queued (an acquire that does not wait).
    case none

    /// Hands the waiter what it waited for.
    func grant(_ result: Result<PoolState<PGConnection, PoolWaiter>.Grant, any Error>) {
        switch self {
        case .task(let continuation): continuation.resume(with: result)
        case .thread(let waiter): waiter.grant(result)
        case .none: break
        }
    }
}

/// A thread blocked until it is granted a result (once): a connection, a slot, or the
/// failure the pool's timer gives it at its deadline.
///
/// `@unchecked Sendable`: `result` is only touched holding `condition`.
final class ThreadWaiter: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Result<PoolState<PGConnection, PoolWaiter>.Grant, any Error>?

    func grant(_ result: Result<PoolState<PGConnection, PoolWaiter>.Grant, any Error>) {
        condition.lock()
        if self.result == nil { self.result = result }
        condition.signal()
        condition.unlock()
    }

    /// The result, waiting as long as it takes.
    func wait() -> Result<PoolState<PGConnection, PoolWaiter>.Grant, any Error> {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let result { return result }
            condition.wait()
        }
    }
}

extension Duration {
    var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) / 1e18
    }
}
