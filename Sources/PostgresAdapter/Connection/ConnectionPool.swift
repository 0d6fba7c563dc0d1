import Foundation
import ModelCore

/// Connections to one server, opened on demand up to a maximum and lent to one thread at
/// a time.
///
/// - Acquiring waits while every connection is lent out, up to the acquire timeout
///   (then ``PostgresError`` `.poolTimeout`).
/// - A connection comes back healthy or is closed: one that broke (server restarted,
///   network) or was left inside a transaction is dropped, and the next acquire opens a
///   fresh one — so the pool recovers by itself after a server restart.
/// - A connection idle longer than the health-check interval is pinged (`SELECT 1`)
///   before it is lent.
final class ConnectionPool: Sendable {
    private struct State {
        var idle: [PGConnection] = []
        var open = 0
        var closed = false
        /// Connections idle since before this instant are pinged before they are lent
        /// (set when a connection is found broken: the server may have restarted).
        var suspectBefore = ContinuousClock.now
        /// Async acquirers waiting for a connection (handed one at release) or for a free
        /// slot to open one in (handed nil), first come first served.
        var waiters = PoolWaiters()
        var nextWaiter: UInt64 = 0
    }

    private let state = Locked(State())
    private let condition = NSCondition()
    let conninfo: String
    let session: PGSession
    let maximum: Int
    let acquireTimeout: Duration
    let healthCheckInterval: Duration
    /// A name for messages ("primary", "replica 1").
    let role: String

    init(conninfo: String, session: PGSession, maximum: Int, acquireTimeout: Duration, healthCheckInterval: Duration, role: String) {
        self.conninfo = conninfo
        self.session = session
        self.maximum = max(1, maximum)
        self.acquireTimeout = acquireTimeout
        self.healthCheckInterval = healthCheckInterval
        self.role = role
    }

    /// Lends a connection, opening one when none is idle and the pool is below its maximum.
    func acquire() throws -> PGConnection {
        try acquire(within: acquireTimeout)
    }

    /// Lends a connection only if one is idle or may be opened now, without waiting.
    func acquireNow() -> PGConnection? {
        try? acquire(within: .zero)
    }

    private func acquire(within timeout: Duration) throws -> PGConnection {
        let deadline = Date().addingTimeInterval(timeout.seconds)
        while true {
            condition.lock()
            var decision: (connection: PGConnection?, mayOpen: Bool, closed: Bool) = (nil, false, false)
            while true {
                decision = state.withLock { s in
                    if s.closed { return (nil, false, true) }
                    if let connection = s.idle.popLast() { return (connection, false, false) }
                    if s.open < maximum {
                        s.open += 1
                        return (nil, true, false)
                    }
                    return (nil, false, false)
                }
                if decision.connection != nil || decision.mayOpen || decision.closed { break }
                if !condition.wait(until: deadline) {
                    condition.unlock()
                    throw PostgresError(
                        .poolTimeout,
                        message: "no \(role) connection became free within \(timeout) (all \(maximum) in use)")
                }
            }
            condition.unlock()
            if decision.closed { throw StoreError.closed("PostgreSQL store") }
            if let connection = decision.connection {
                let suspect = state.withLock { connection.idleSince < $0.suspectBefore }
                if (!suspect && ContinuousClock.now - connection.idleSince < healthCheckInterval) || ping(connection) {
                    return connection
                }
                discard(connection)
                continue
            }
            do {
                return try PGConnection(conninfo: conninfo, session: session)
            } catch {
                discard(nil)
                throw error
            }
        }
    }

    private func ping(_ connection: PGConnection) -> Bool {
        guard connection.isHealthy else { return false }
        return (try? connection.execute("SELECT 1")) != nil
    }

    /// Takes a connection back: kept when healthy and outside a transaction, else closed.
    func release(_ connection: PGConnection) {
        if !connection.isHealthy || connection.isInTransaction {
            // Broken (not closed on purpose, as a cancelled call does): the server may have
            // restarted, so idle connections are pinged before reuse.
            if !connection.isHealthy, connection.handle != nil { state.withLock { $0.suspectBefore = .now } }
            discard(connection)
            return
        }
        connection.idleSince = .now
        let (kept, waiter) = state.withLock { s -> (Bool, CheckedContinuation<PGConnection?, any Error>?) in
            guard !s.closed else { return (false, nil) }
            if let waiter = s.waiters.popFirst() { return (true, waiter) }
            s.idle.append(connection)
            return (true, nil)
        }
        if let waiter {
            waiter.resume(returning: connection)
            return
        }
        if !kept { discard(connection) }
        condition.lock()
        condition.signal()
        condition.unlock()
    }

    /// Closes a connection that will not come back and frees its slot.
    func discard(_ connection: PGConnection?) {
        connection?.close()
        // The slot goes to an async acquirer waiting for one, or is freed.
        let waiter = state.withLock { s -> CheckedContinuation<PGConnection?, any Error>? in
            if !s.closed, let waiter = s.waiters.popFirst() { return waiter }
            s.open -= 1
            return nil
        }
        if let waiter {
            waiter.resume(returning: nil)
            return
        }
        condition.lock()
        condition.signal()
        condition.unlock()
    }

    /// Runs `body` with a lent connection.
    @inline(__always) func with<R>(_ body: (PGConnection) throws -> R) throws -> R {
        let connection = try acquire()
        defer { release(connection) }
        return try body(connection)
    }

    /// Refuses new acquires (``StoreError`` `.closed`), closes idle connections, then waits
    /// until every lent connection has come back (and been closed), so work in flight on
    /// other threads finishes first. Idempotent.
    func close() {
        let (idle, waiters) = state.withLock { s -> ([PGConnection], [CheckedContinuation<PGConnection?, any Error>]) in
            s.closed = true
            s.open -= s.idle.count
            s.waiters.timer?.cancel()
            s.waiters.timer = nil
            defer { s.idle = [] }
            return (s.idle, s.waiters.removeAll())
        }
        for connection in idle { connection.close() }
        for waiter in waiters { waiter.resume(throwing: StoreError.closed("PostgreSQL store")) }
        condition.lock()
        condition.broadcast()
        // Bounded waits: a release's signal may wake an acquirer instead of this thread.
        while state.withLock({ $0.open > 0 }) { _ = condition.wait(until: Date().addingTimeInterval(0.05)) }
        condition.unlock()
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
            enum Decision { case closed, lend(PGConnection), open, wait(UInt64) }
            let decision = state.withLock { s -> Decision in
                if s.closed { return .closed }
                if let connection = s.idle.popLast() { return .lend(connection) }
                if s.open < maximum {
                    s.open += 1
                    return .open
                }
                s.nextWaiter += 1
                return .wait(s.nextWaiter)
            }
            switch decision {
            case .closed:
                throw StoreError.closed("PostgreSQL store")
            case .lend(let connection):
                let suspect = state.withLock { connection.idleSince < $0.suspectBefore }
                if !suspect && ContinuousClock.now - connection.idleSince < healthCheckInterval { return connection }
                if connection.isHealthy, (try? await connection.execute("SELECT 1", on: loop)) != nil { return connection }
                discard(connection)  // broken, or closed by a cancelled ping (the loop then throws)
            case .open:
                return try await open(on: loop)
            case .wait(let id):
                if let connection = try await waitForRelease(id) { return connection }
                return try await open(on: loop)
            }
        }
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

    /// Suspends until a connection is released to this waiter (or a slot freed: nil), the
    /// acquire timeout passes, the task is cancelled or the pool closes.
    private func waitForRelease(_ id: UInt64) async throws -> PGConnection? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<PGConnection?, any Error>) in
                let deadline = DispatchTime.now() + acquireTimeout.seconds
                let registered = state.withLock { s -> Bool in
                    guard !s.closed else { return false }
                    s.waiters.append(id, deadline: deadline, continuation)
                    if s.waiters.timer == nil { s.waiters.timer = armTimer(at: deadline) }
                    return true
                }
                guard registered else {
                    continuation.resume(throwing: StoreError.closed("PostgreSQL store"))
                    return
                }
                if Task.isCancelled, let waiter = removeWaiter(id) { waiter.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            removeWaiter(id)?.resume(throwing: CancellationError())
        }
    }

    private func removeWaiter(_ id: UInt64) -> CheckedContinuation<PGConnection?, any Error>? {
        state.withLock { $0.waiters.remove(id) }
    }

    /// The pool's one waiter timer, firing at `deadline` (call holding the state lock).
    private func armTimer(at deadline: DispatchTime) -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: deadline, leeway: .milliseconds(10))
        timer.setEventHandler { [weak self] in self?.timeOutWaiters() }
        timer.resume()
        return timer
    }

    /// The timer fired: the waiters past their deadline fail with `.poolTimeout`; the timer
    /// is re-armed for the oldest one left, or stopped when none is.
    private func timeOutWaiters() {
        let expired = state.withLock { s -> [CheckedContinuation<PGConnection?, any Error>] in
            let expired = s.waiters.popExpired(at: .now())
            if let next = s.waiters.nextDeadline {
                s.waiters.timer?.schedule(deadline: next, leeway: .milliseconds(10))
            } else {
                s.waiters.timer?.cancel()
                s.waiters.timer = nil
            }
            return expired
        }
        guard !expired.isEmpty else { return }
        let error = PostgresError(.poolTimeout, message: "no \(role) connection became free within \(acquireTimeout) (all \(maximum) in use)")
        for waiter in expired { waiter.resume(throwing: error) }
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

    /// How many connections are open (idle and lent).
    var openCount: Int { state.withLock { $0.open } }
}

extension Duration {
    var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) / 1e18
    }
}
