import SwiftModelCLibPQ

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Pipelined statements settled without blocking: an async transaction's `BEGIN`, its
/// writes and its `COMMIT` go out in one pipeline with one sync — one round trip for a
/// transaction that only writes — and the results are read as the socket becomes ready,
/// the task suspending on the adapter's ``PGEventLoop`` meanwhile.
extension PGConnection {
    /// Queues a statement without parameters in the pipeline (entering it when nothing is
    /// waiting), unnamed, so nothing needs preparing; its result is read at the next
    /// settle. Its failure, if any, is the server's error as it gave it.
    func sendUnprepared(_ sql: String, as kind: PGPendingWrite.Kind = .plain) throws {
        let handle = try live()
        if pending.isEmpty, PQenterPipelineMode(handle) != 1 { throw failure(nil, sql: sql, arguments: []) }
        guard PQsendQueryParams(handle, sql, 0, nil, nil, nil, nil, 1) == 1 else {
            let error = failure(nil, sql: sql, arguments: [])
            discardPipeline()
            throw error
        }
        pending.append(PGPendingWrite(sql: sql, arguments: [], kind: kind))
    }

    /// ``settle()`` without blocking: a sync, then every waiting statement's result in
    /// order, leaving pipeline mode; throws the first failure after reading everything.
    /// Not cancellable: it carries an async transaction's `COMMIT` or `ROLLBACK`, whose
    /// outcome a cancelled task must still learn (as a blocking commit would).
    func settle(on loop: PGEventLoop) async throws {
        guard !pending.isEmpty else { return }
        let writes = pending
        pending.removeAll(keepingCapacity: true)
        let handle = try live()
        PQsetnonblocking(handle, 1)
        defer {
            if self.handle != nil {
                _ = PQexitPipelineMode(handle)
                PQsetnonblocking(handle, 0)
            }
        }
        guard PQpipelineSync(handle) == 1 else { throw failure(nil, sql: writes.last?.sql, arguments: []) }
        var first: (any Error)?
        do {
            try await readPipeline(handle, loop) { index, raw in judge(raw, of: writes, at: index, into: &first) }
        } catch {
            throw first ?? failure(nil, sql: writes.last?.sql, arguments: writes.last?.arguments ?? [])
        }
        if let first { throw first }
    }

    /// Flushes the pipeline and reads its results up to the sync's marker without
    /// blocking, handing each (which `each` then owns) with the index of its statement.
    ///
    /// - Throws: the connection's failure when it broke before the sync.
    private func readPipeline(_ handle: OpaquePointer, _ loop: PGEventLoop, _ each: (Int, OpaquePointer) -> Void) async throws {
        let socket = PQsocket(handle)
        while true {
            let flushed = PQflush(handle)
            if flushed == 0 { break }
            if flushed < 0 { throw failure(nil, sql: nil, arguments: []) }
            try await loop.wait(for: socket, events: Int16(POLLIN | POLLOUT), cancellable: false)
            guard PQconsumeInput(handle) == 1 else { throw failure(nil, sql: nil, arguments: []) }
        }
        var index = 0
        var empty = 0
        while true {
            guard PQconsumeInput(handle) == 1 else { throw failure(nil, sql: nil, arguments: []) }
            if PQisBusy(handle) == 1 {
                try await loop.wait(for: socket, events: Int16(POLLIN), cancellable: false)
                continue
            }
            guard let raw = PQgetResult(handle) else {
                // The end of one statement's results; two in a row: nothing more is coming.
                if PQstatus(handle) != CONNECTION_OK || empty > 0 { throw failure(nil, sql: nil, arguments: []) }
                empty += 1
                index += 1
                continue
            }
            empty = 0
            if PQresultStatus(raw) == PGRES_PIPELINE_SYNC {
                PQclear(raw)
                return
            }
            each(index, raw)
        }
    }
}
