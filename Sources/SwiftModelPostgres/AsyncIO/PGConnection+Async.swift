import Foundation
import ModelSQL
import SwiftModelCLibPQ

/// The async driver of statements: the same ``PGStatement`` and ``PGFlight`` as the
/// blocking driver (`PGConnection+Statements.swift`), with the connection in libpq's
/// non-blocking mode for the call, the task suspending on the adapter's ``PGEventLoop``
/// whenever the socket is not ready — it holds no thread while the server works.
///
/// Cancelling the task cancels the statement on the server (`PQcancel`, sent from a
/// dispatch thread) and closes the connection, whose protocol state is then unknown; the
/// pool drops it and opens a fresh one.
extension PGConnection {
    /// Runs one statement with bound values through a cached prepared statement, with
    /// binary results, without blocking the calling thread.
    func query(_ sql: String, _ arguments: [ModelValue], on loop: PGEventLoop) async throws -> PGResult {
        try answer(try await run(PGStatement(sql, .bound(arguments)), on: loop), sql: sql, arguments: arguments)
    }

    /// Runs SQL without parameters (the simple protocol), without blocking.
    @discardableResult
    func execute(_ sql: String, on loop: PGEventLoop) async throws -> PGResult {
        try answer(try await run(PGStatement(sql, .script), on: loop), sql: sql, arguments: [])
    }

    /// Makes `call` without blocking (the blocking driver: ``reply(to:)``).
    func reply(to call: SQLCall, on loop: PGEventLoop) async throws -> SQLReply {
        let statement = call.postgres
        let result = try await query(statement.sql, statement.arguments, on: loop)
        if let then = statement.then { _ = try await query(then.sql, then.arguments, on: loop) }
        return try statement.reply(result)
    }

    /// Drives `statement` to its answer without blocking, after settling the pipelined
    /// writes waiting on the connection.
    func run(_ statement: PGStatement, on loop: PGEventLoop) async throws -> PGResult? {
        if !pending.isEmpty { try await settle(on: loop) }
        var statement = statement
        var previous: PGResult?
        let handle = try live()
        PQsetnonblocking(handle, 1)
        defer { if self.handle != nil { PQsetnonblocking(handle, 0) } }
        do {
            while true {
                switch try statement.next(self, try live(), after: previous) {
                case .done(let result): return result
                case .read(var flight):
                    try await drive(&flight, handle, loop, cancellable: true)
                    previous = try flight.outcome(self)
                }
            }
        } catch is CancellationError {
            cancelAndClose(handle)
            throw CancellationError()
        }
    }

    /// ``settle()`` without blocking. Not cancellable: it carries an async transaction's
    /// `COMMIT` or `ROLLBACK`, whose outcome a cancelled task must still learn (as a
    /// blocking commit would).
    func settle(on loop: PGEventLoop) async throws {
        guard let (handle, flight) = try syncPipeline() else { return }
        var reading = flight
        PQsetnonblocking(handle, 1)
        defer { if self.handle != nil { PQsetnonblocking(handle, 0) } }
        try await drive(&reading, handle, loop, cancellable: false)
        _ = try reading.outcome(self)
    }

    /// Reads `flight` to its end, suspending on `loop` while the socket is not ready.
    private func drive(_ flight: inout PGFlight, _ handle: OpaquePointer, _ loop: PGEventLoop, cancellable: Bool) async throws {
        while case .wait(let events) = flight.advance(self, handle) {
            try await loop.wait(for: PQsocket(handle), events: events, cancellable: cancellable)
        }
    }

    /// Asks the server to cancel the running statement (from a dispatch thread: `PQcancel`
    /// opens a connection of its own) and closes this one.
    private func cancelAndClose(_ handle: OpaquePointer) {
        if let cancel = PQgetCancel(handle) {
            let request = CancelRequest(cancel)
            DispatchQueue.global().async { request.send() }
        }
        close()
    }
}

/// A `PQcancel` request for one backend, sent once.
///
/// `@unchecked Sendable`: the `PGcancel` object is created here, used by `send()` on one
/// dispatch thread and freed there; nothing else touches it.
private final class CancelRequest: @unchecked Sendable {
    let cancel: OpaquePointer

    init(_ cancel: OpaquePointer) { self.cancel = cancel }

    func send() {
        var message = [CChar](repeating: 0, count: 256)
        _ = PQcancel(cancel, &message, Int32(message.count))
        PQfreeCancel(cancel)
    }
}
