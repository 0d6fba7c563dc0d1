import Foundation
import SwiftModelCLibPQ

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opening a connection without holding a thread: `PQconnectStart`, then `PQconnectPoll`
/// each time the adapter's ``PGEventLoop`` reports the socket ready (libpq may move to
/// another socket as it tries the hosts of a multi-host string), then the session's setup
/// as async statements.
extension PGConnection {
    /// Connects to `conninfo` and runs `session`'s setup, suspending while the server (or
    /// the network) has not answered.
    ///
    /// libpq's `connect_timeout` only bounds blocking connects, so this one gives up itself
    /// after `timeout` in all.
    ///
    /// - Throws: ``PostgresError`` `.connection` with libpq's message, or when `timeout`
    ///   passed; `CancellationError` when the task is cancelled (the half-open connection is
    ///   closed).
    static func open(conninfo: String, session: PGSession, on loop: PGEventLoop, timeout: Duration) async throws -> PGConnection {
        guard let handle = PQconnectStart(conninfo) else {
            throw PostgresError(.connection, message: "libpq could not allocate a connection")
        }
        guard PQstatus(handle) != CONNECTION_BAD else { throw failedConnection(handle) }
        let deadline = ContinuousClock.now + timeout
        var polling = PGRES_POLLING_WRITING
        do {
            while polling != PGRES_POLLING_OK {
                switch polling {
                case PGRES_POLLING_READING, PGRES_POLLING_WRITING:
                    let events = Int16(polling == PGRES_POLLING_READING ? POLLIN : POLLOUT)
                    guard try await ready(PQsocket(handle), events, loop, until: deadline) else {
                        PQfinish(handle)
                        throw PostgresError(.connection, message: "no connection to the server within \(timeout)")
                    }
                    polling = PQconnectPoll(handle)
                default:
                    throw failedConnection(handle)
                }
            }
        } catch let error as PostgresError {
            throw error
        } catch {
            PQfinish(handle)
            throw error
        }
        let connection = PGConnection(connected: handle, session: session)
        for sql in session.setup { _ = try await connection.execute(sql, on: loop) }
        return connection
    }

    /// Whether `fd` became ready for `events` before `deadline`.
    private static func ready(_ fd: Int32, _ events: Int16, _ loop: PGEventLoop, until deadline: ContinuousClock.Instant) async throws
        -> Bool
    {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await loop.wait(for: fd, events: events)
                return true
            }
            group.addTask {
                try await Task.sleep(until: deadline, clock: .continuous)
                return false
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { return false }
            return first
        }
    }
}
