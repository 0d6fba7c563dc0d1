import SwiftModelCLibPQ

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading one flight of statements sent on a connection — flushing what was sent, then
/// taking every result up to the flight's end — as a state machine that does no waiting of
/// its own: ``advance(_:_:)`` moves as far as libpq's buffers allow and answers
/// ``Step/wait(_:)`` with the socket events it needs next. A driver waits for them and
/// advances again: the blocking driver in `poll(2)` on the calling thread
/// (``PGConnection/run(_:)``), the async one suspended on the adapter's ``PGEventLoop``
/// (``PGConnection/run(_:on:)``). Both read every flight through this one type, so what
/// they send and how they judge results cannot differ (`PGStatementTests` compares their
/// transcripts).
///
/// A flight ends at the null result after the last statement, or — for a pipeline — at
/// the sync's marker (statements are separated by null results there; two in a row mean
/// the connection broke).
struct PGFlight {
    /// What the results are for.
    enum Reading {
        /// Statements whose last result is the answer and whose first failure is the error.
        case last(sql: String?, arguments: [ModelValue])
        /// Pipelined writes, each judged as the write would have thrown
        /// (``PGConnection/judge(_:of:at:into:)``).
        case writes([PGPendingWrite])
    }

    /// What a driver does next.
    enum Step: Equatable {
        /// Wait until the socket is ready for these `poll(2)` events, then advance.
        case wait(Int16)
        /// The flight is read: take its ``outcome(_:)``.
        case done
    }

    let reading: Reading
    /// Whether the flight is a pipeline ending in a sync (left when read).
    let pipelined: Bool
    private var flushed = false
    /// Whether input arrived that libpq has not consumed yet (after a wait).
    private var readable = false
    private var index = 0
    private var nulls = 0
    private var last: PGResult?
    private var failed: (any Error)?
    private var broken = false

    init(_ reading: Reading, pipelined: Bool) {
        self.reading = reading
        self.pipelined = pipelined
    }

    /// Moves the flight on as far as it can without waiting.
    mutating func advance(_ connection: PGConnection, _ handle: OpaquePointer) -> Step {
        if readable {
            readable = false
            guard PQconsumeInput(handle) == 1 else { return end(handle, broken: true) }
        }
        if !flushed {
            switch PQflush(handle) {
            case 0: flushed = true
            case 1:
                // Read while writing: a server blocked on sending results must not wait
                // for a client blocked on sending statements.
                readable = true
                return .wait(Int16(POLLIN | POLLOUT))
            default: return end(handle, broken: true)
            }
        }
        while true {
            if PQisBusy(handle) == 1 {
                readable = true
                return .wait(Int16(POLLIN))
            }
            guard let raw = PQgetResult(handle) else {
                guard pipelined else { return end(handle, broken: false) }
                // The end of one statement's results; two in a row: nothing more is coming.
                if PQstatus(handle) != CONNECTION_OK || nulls > 0 { return end(handle, broken: true) }
                nulls += 1
                index += 1
                continue
            }
            nulls = 0
            if pipelined, PQresultStatus(raw) == PGRES_PIPELINE_SYNC {
                PQclear(raw)
                return end(handle, broken: false)
            }
            take(raw, connection)
        }
    }

    /// The flight's answer once it is ``Step/done``: the last result, or the first failure.
    ///
    /// - Throws: the first failure (the server's error, mapped for a write); the
    ///   connection's failure when it broke before the end.
    func outcome(_ connection: PGConnection) throws -> PGResult? {
        if let failed { throw failed }
        switch reading {
        case .last(let sql, let arguments):
            guard let last, !broken else { throw connection.failure(nil, sql: sql, arguments: arguments) }
            return last
        case .writes(let writes):
            if broken { throw connection.failure(nil, sql: writes.last?.sql, arguments: writes.last?.arguments ?? []) }
            return nil
        }
    }

    private mutating func take(_ raw: OpaquePointer, _ connection: PGConnection) {
        switch reading {
        case .last(let sql, let arguments):
            let result = PGResult(raw)
            switch PQresultStatus(raw) {
            case PGRES_TUPLES_OK, PGRES_COMMAND_OK, PGRES_EMPTY_QUERY: last = result
            case PGRES_PIPELINE_ABORTED: break
            default: if failed == nil { failed = connection.failure(result, sql: sql, arguments: arguments) }
            }
        case .writes(let writes):
            connection.judge(raw, of: writes, at: index, into: &failed)
        }
    }

    private mutating func end(_ handle: OpaquePointer, broken: Bool) -> Step {
        self.broken = broken
        if pipelined { _ = PQexitPipelineMode(handle) }
        return .done
    }
}
