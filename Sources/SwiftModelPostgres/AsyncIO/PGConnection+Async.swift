import Foundation
import SwiftModelCLibPQ

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Statements run with libpq's asynchronous API: the connection is switched to
/// non-blocking mode, the statement is sent (`PQsendQueryPrepared`), the output flushed
/// (`PQflush`) and the result read (`PQconsumeInput` / `PQisBusy` / `PQgetResult`), the
/// task suspending on the adapter's ``PGEventLoop`` whenever the socket is not ready.
///
/// Cancelling the task cancels the statement on the server (`PQcancel`, sent from a
/// dispatch thread) and closes the connection, whose protocol state is then unknown; the
/// pool drops it and opens a fresh one.
extension PGConnection {
    /// Runs one statement with bound values through a cached prepared statement, with
    /// binary results, without blocking the calling thread.
    func query(_ sql: String, _ arguments: [ModelValue], on loop: PGEventLoop) async throws -> PGResult {
        try Self.checkParameterCount(arguments, sql: sql)
        let handle = try live()
        let statement = try await prepared(sql, handle, loop)
        let parameters = try bind(arguments, to: statement.types, sql: sql)
        let count = Int32(arguments.count)
        guard session.unnamedStatements else {
            let sent = parameters.withPointers { values, lengths, formats in
                PQsendQueryPrepared(handle, statement.name, count, values, lengths, formats, 1)
            }
            guard sent == 1 else { throw failure(nil, sql: sql, arguments: arguments) }
            return try await result(handle, loop, sql: sql, arguments: arguments)
        }
        // Behind a transaction pooler: unnamed, after the local settings when due (one
        // pipeline, one sync: one server connection).
        let local = localSettings(handle)
        if local != nil, PQenterPipelineMode(handle) != 1 { throw failure(nil, sql: sql, arguments: arguments) }
        let sent = parameters.withPointers { values, lengths, formats in
            statement.types.withUnsafeBufferPointer { types in
                if let local, PQsendQueryParams(handle, local, 0, nil, nil, nil, nil, 1) != 1 { return Int32(0) }
                return PQsendQueryParams(handle, sql, count, types.baseAddress, values, lengths, formats, 1)
            }
        }
        guard sent == 1, local == nil || PQpipelineSync(handle) == 1 else {
            if local != nil { _ = PQexitPipelineMode(handle) }
            throw failure(nil, sql: sql, arguments: arguments)
        }
        return try await result(handle, loop, sql: sql, arguments: arguments, pipelined: local != nil)
    }

    /// Runs SQL without parameters (the simple protocol), without blocking.
    func execute(_ sql: String, on loop: PGEventLoop) async throws -> PGResult {
        let handle = try live()
        guard PQsendQuery(handle, sql) == 1 else { throw failure(nil, sql: sql, arguments: []) }
        return try await result(handle, loop, sql: sql, arguments: [])
    }

    /// The cached prepared statement for `sql`, preparing and describing it on first use.
    private func prepared(_ sql: String, _ handle: OpaquePointer, _ loop: PGEventLoop) async throws
        -> (name: String, types: [UInt32])
    {
        if let statement = statements[sql] { return statement }
        if session.unnamedStatements { return try await describeUnnamed(sql, handle, loop) }
        if statements.count >= Self.statementLimit {
            _ = try await execute("DEALLOCATE ALL", on: loop)
            statements.removeAll(keepingCapacity: true)
        }
        nextStatement += 1
        let name = "swiftmodel_\(nextStatement)"
        guard PQsendPrepare(handle, name, sql, 0, nil) == 1 else { throw failure(nil, sql: sql, arguments: []) }
        _ = try await result(handle, loop, sql: sql, arguments: [])
        guard PQsendDescribePrepared(handle, name) == 1 else { throw failure(nil, sql: sql, arguments: []) }
        let description = try await result(handle, loop, sql: sql, arguments: [])
        let types = (0..<PQnparams(description.handle)).map { UInt32(PQparamtype(description.handle, $0)) }
        statements[sql] = (name, types)
        return (name, types)
    }

    /// ``describeUnnamed(_:_:)`` without blocking: Parse and Describe of the unnamed
    /// statement (after the local settings when due) in one pipeline.
    private func describeUnnamed(_ sql: String, _ handle: OpaquePointer, _ loop: PGEventLoop) async throws
        -> (name: String, types: [UInt32])
    {
        if statements.count >= Self.statementLimit { statements.removeAll(keepingCapacity: true) }
        let local = localSettings(handle)
        guard PQenterPipelineMode(handle) == 1 else { throw failure(nil, sql: sql, arguments: []) }
        var sent = local.map { PQsendQueryParams(handle, $0, 0, nil, nil, nil, nil, 1) == 1 } ?? true
        sent = sent && PQsendPrepare(handle, "", sql, 0, nil) == 1 && PQsendDescribePrepared(handle, "") == 1
        guard sent, PQpipelineSync(handle) == 1 else {
            _ = PQexitPipelineMode(handle)
            throw failure(nil, sql: sql, arguments: [])
        }
        let description = try await result(handle, loop, sql: sql, arguments: [], pipelined: true)
        let types = (0..<PQnparams(description.handle)).map { UInt32(PQparamtype(description.handle, $0)) }
        statements[sql] = ("", types)
        return ("", types)
    }

    /// Flushes what was sent and reads every result of it, suspending while the socket is
    /// not ready; returns the last result, or throws the first error. `pipelined`: what was
    /// sent is a pipeline ending in a sync (read up to it, then leave pipeline mode).
    private func result(
        _ handle: OpaquePointer, _ loop: PGEventLoop, sql: String, arguments: [ModelValue], pipelined: Bool = false
    ) async throws -> PGResult {
        PQsetnonblocking(handle, 1)
        defer {
            if self.handle != nil {
                if pipelined { _ = PQexitPipelineMode(handle) }
                PQsetnonblocking(handle, 0)
            }
        }
        let socket = PQsocket(handle)
        do {
            while true {
                let flushed = PQflush(handle)
                if flushed == 0 { break }
                if flushed < 0 { throw failure(nil, sql: sql, arguments: arguments) }
                try await loop.wait(for: socket, events: Int16(POLLIN | POLLOUT))
                guard PQconsumeInput(handle) == 1 else { throw failure(nil, sql: sql, arguments: arguments) }
            }
            var last: PGResult?
            var failed: PostgresError?
            while true {
                guard PQconsumeInput(handle) == 1 else { throw failure(nil, sql: sql, arguments: arguments) }
                if PQisBusy(handle) == 1 {
                    try await loop.wait(for: socket, events: Int16(POLLIN))
                    continue
                }
                guard let raw = PQgetResult(handle) else {
                    if pipelined { continue }  // the end of one statement of the pipeline
                    break
                }
                if pipelined, PQresultStatus(raw) == PGRES_PIPELINE_SYNC {
                    PQclear(raw)
                    break
                }
                let result = PGResult(raw)
                switch PQresultStatus(raw) {
                case PGRES_PIPELINE_ABORTED: break
                case PGRES_TUPLES_OK, PGRES_COMMAND_OK, PGRES_EMPTY_QUERY: last = result
                default: if failed == nil { failed = failure(result, sql: sql, arguments: arguments) }
                }
            }
            if let failed { throw failed }
            guard let last else { throw failure(nil, sql: sql, arguments: arguments) }
            return last
        } catch is CancellationError {
            cancelAndClose(handle)
            throw CancellationError()
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
