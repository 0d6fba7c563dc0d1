import SwiftModelCLibPQ

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The blocking driver of statements: ``PGStatement`` sends, ``PGFlight`` reads, and the
/// calling thread waits in `poll(2)` whenever the socket is not ready — as libpq's own
/// blocking calls do. The async driver (`PGConnection+Async.swift`) runs the same two
/// machines and suspends on the event loop instead.
extension PGConnection {
    /// Runs SQL without parameters (one or more statements) with the simple protocol.
    @discardableResult
    func execute(_ sql: String) throws -> PGResult {
        try answer(try run(PGStatement(sql, .script)), sql: sql, arguments: [])
    }

    /// Runs one statement with bound values through a cached prepared statement, with
    /// binary results.
    func query(_ sql: String, _ arguments: [ModelValue]) throws -> PGResult {
        try answer(try run(PGStatement(sql, .bound(arguments))), sql: sql, arguments: arguments)
    }

    /// Prepares and describes `sql` into the statement cache, unless it is there.
    func prepare(_ sql: String) throws {
        _ = try run(PGStatement(sql, .prepare))
    }

    /// Drives `statement` to its answer on the calling thread, after settling the
    /// pipelined writes waiting on the connection.
    func run(_ statement: PGStatement) throws -> PGResult? {
        if !pending.isEmpty { try settle() }
        var statement = statement
        var previous: PGResult?
        while true {
            let handle = try live()
            switch try statement.next(self, handle, after: previous) {
            case .done(let result): return result
            case .read(var flight):
                drive(&flight, handle)
                previous = try flight.outcome(self)
            }
        }
    }

    /// Ends the pipeline: a sync, then every waiting write's result in order, leaving
    /// pipeline mode. Throws the first failure — the server's error mapped as the write
    /// would have thrown it (``PGPendingWrite/failed(_:)``), or a write that found no row —
    /// after reading everything, so the connection is ready for the next statement (inside
    /// a transaction the server has aborted it, as for any failed statement).
    func settle() throws {
        guard let (handle, flight) = try syncPipeline() else { return }
        var reading = flight
        drive(&reading, handle)
        _ = try reading.outcome(self)
    }

    /// Takes the waiting writes and sends the pipeline's sync; the flight that reads their
    /// results (nil: none waits).
    func syncPipeline() throws -> (OpaquePointer, PGFlight)? {
        guard !pending.isEmpty else { return nil }
        let writes = pending
        pending.removeAll(keepingCapacity: true)
        guard let handle else { throw PostgresError(.connection, message: "the connection is closed") }
        guard PQpipelineSync(handle) == 1 else {
            let error = failure(nil, sql: writes.last?.sql, arguments: writes.last?.arguments ?? [])
            _ = PQexitPipelineMode(handle)
            throw error
        }
        return (handle, PGFlight(.writes(writes), pipelined: true))
    }

    /// A statement's result, which every statement but ``PGStatement/Kind/prepare`` has.
    func answer(_ result: PGResult?, sql: String, arguments: [ModelValue]) throws -> PGResult {
        guard let result else { throw failure(nil, sql: sql, arguments: arguments) }
        return result
    }

    /// Reads `flight` to its end, waiting in `poll(2)` on the calling thread.
    private func drive(_ flight: inout PGFlight, _ handle: OpaquePointer) {
        while case .wait(let events) = flight.advance(self, handle) {
            // No socket (the connection failed) or a failed poll (other than an
            // interruption): libpq's next read reports the connection's state.
            var socket = pollfd(fd: PQsocket(handle), events: events, revents: 0)
            guard socket.fd >= 0 else { continue }
            while poll(&socket, 1, -1) < 0, errno == EINTR {}
        }
    }
}
