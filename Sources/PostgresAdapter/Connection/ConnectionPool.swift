import Foundation

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
    }

    private let state = Locked(State())
    private let condition = NSCondition()
    let conninfo: String
    let setup: [String]
    let maximum: Int
    let acquireTimeout: Duration
    let healthCheckInterval: Duration
    /// A name for messages ("primary", "replica 1").
    let role: String

    init(conninfo: String, setup: [String], maximum: Int, acquireTimeout: Duration, healthCheckInterval: Duration, role: String) {
        self.conninfo = conninfo
        self.setup = setup
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
                return try PGConnection(conninfo: conninfo, setup: setup)
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
            if !connection.isHealthy { state.withLock { $0.suspectBefore = .now } }
            discard(connection)
            return
        }
        connection.idleSince = .now
        let kept = state.withLock { s -> Bool in
            guard !s.closed else { return false }
            s.idle.append(connection)
            return true
        }
        if !kept { discard(connection) }
        condition.lock()
        condition.signal()
        condition.unlock()
    }

    /// Closes a connection that will not come back and frees its slot.
    func discard(_ connection: PGConnection?) {
        connection?.close()
        state.withLock { $0.open -= 1 }
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
        let idle = state.withLock { s -> [PGConnection] in
            s.closed = true
            s.open -= s.idle.count
            defer { s.idle = [] }
            return s.idle
        }
        for connection in idle { connection.close() }
        condition.lock()
        condition.broadcast()
        // Bounded waits: a release's signal may wake an acquirer instead of this thread.
        while state.withLock({ $0.open > 0 }) { _ = condition.wait(until: Date().addingTimeInterval(0.05)) }
        condition.unlock()
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
