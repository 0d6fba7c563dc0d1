import ModelSQL
import SwiftModelCLibPQ

/// A write sent in libpq's pipeline mode whose result has not been read yet, and what its
/// result must show: the error the write would have thrown had it waited is built from it
/// when the result arrives (``PGConnection/settle()``).
struct PGPendingWrite {
    /// What the write was, for the error its result may call for.
    enum Kind {
        /// A model row inserted into `table` with this id: a key violation is
        /// `.duplicateID` / `.uniqueViolation`.
        case insert(SQLTable, id: ModelValue)
        /// A model row updated: no row changed is `.notFound`; a key violation is mapped.
        case update(SQLTable, id: ModelValue)
        /// A stored record deleted: no row deleted is `ModelError.recordNotFound`.
        case delete(SQLTable, id: ModelValue)
        /// Any other statement (a sequence bump): its error as the server gave it.
        case plain
        /// `COMMIT`: the server's answer `ROLLBACK` (the transaction had failed) is an error.
        case commit
    }

    let sql: String
    let arguments: [ModelValue]
    let kind: Kind

    /// The error for a result that changed `rows` rows, if it is one.
    func verdict(changed rows: Int) -> (any Error)? {
        guard rows == 0 else { return nil }
        switch kind {
        case .update(let table, let id):
            return StoreError(.notFound, table: table.schema.tableName, id: id, message: "no row with this id to update")
        case .delete(let table, let id):
            return ModelError(.recordNotFound, model: table.schema.modelName, id: id, message: "the record is no longer stored")
        case .insert, .plain, .commit:
            return nil
        }
    }

    /// The error the write throws for the server's `error`.
    func failed(_ error: PostgresError) -> any Error {
        switch kind {
        case .insert(let table, let id), .update(let table, let id):
            table.mapped(error, id: id, PGConnection.violation(error, in: table))
        case .delete, .plain, .commit:
            error
        }
    }
}

/// Pipelined writes: inside a transaction the adapter sends a write without waiting for its
/// result (``send(_:)``), and the results are read — and the first failure thrown — when
/// the connection next needs a round trip (``settle()``): any read or other statement on it
/// (`execute` and `query` settle first), a savepoint, `COMMIT`, an explicit flush, or when
/// ``pipelineDepth`` writes are waiting.
extension PGConnection {
    /// How many writes may wait unread before the connection settles them. Bounded so the
    /// results the server sends back (a few dozen bytes each) always fit the socket
    /// buffers: a client that writes without reading can otherwise deadlock with a server
    /// blocked on writing results.
    static let pipelineDepth = 512

    /// Sends `write` in pipeline mode (entering it when no write is waiting) and returns
    /// without its result. A statement not yet prepared on this connection is prepared
    /// first, which settles the waiting writes.
    ///
    /// - Throws: ``PostgresError`` `.mismatch` for values that do not fit the statement
    ///   (nothing sent); the first failure of the waiting writes when they had to settle;
    ///   `.connection` when the connection broke.
    func send(_ write: PGPendingWrite) throws {
        try Self.checkParameterCount(write.arguments, sql: write.sql)
        var handle = try live()
        if statements[write.sql] == nil {
            try settle()
            handle = try live()
            _ = try prepared(write.sql, handle)
        }
        guard let statement = statements[write.sql] else {
            throw PostgresError(.mismatch, message: "the statement was not prepared", sql: write.sql)
        }
        let parameters = try bind(write.arguments, to: statement.types, sql: write.sql)
        if pending.isEmpty, PQenterPipelineMode(handle) != 1 {
            throw failure(nil, sql: write.sql, arguments: write.arguments)
        }
        let count = Int32(write.arguments.count)
        let sent = parameters.withPointers { values, lengths, formats in
            session.unnamedStatements
                ? statement.types.withUnsafeBufferPointer { PQsendQueryParams(handle, write.sql, count, $0.baseAddress, values, lengths, formats, 1) }
                : PQsendQueryPrepared(handle, statement.name, count, values, lengths, formats, 1)
        }
        guard sent == 1 else {
            let error = failure(nil, sql: write.sql, arguments: write.arguments)
            discardPipeline()
            throw error
        }
        pending.append(write)
        if pending.count >= Self.pipelineDepth { try settle() }
    }

    /// Ends the pipeline: a sync, then every waiting write's result in order, leaving
    /// pipeline mode. Throws the first failure — the server's error mapped as the write
    /// would have thrown it (``PGPendingWrite/failed(_:)``), or a write that found no row —
    /// after reading everything, so the connection is ready for the next statement (inside
    /// a transaction the server has aborted it, as for any failed statement).
    func settle() throws {
        guard !pending.isEmpty else { return }
        let writes = pending
        pending.removeAll(keepingCapacity: true)
        guard let handle else { throw PostgresError(.connection, message: "the connection is closed") }
        var first: (any Error)?
        if PQpipelineSync(handle) != 1 {
            first = failure(nil, sql: nil, arguments: [])
        } else {
            let synced = readPipeline(handle) { index, raw in judge(raw, of: writes, at: index, into: &first) }
            if !synced, first == nil { first = failure(nil, sql: writes.last?.sql, arguments: writes.last?.arguments ?? []) }
        }
        _ = PQexitPipelineMode(handle)
        if let first { throw first }
    }

    /// Takes the result `raw` of write `index` of `writes` (and frees it): a failure — the
    /// server's error mapped as the write would have thrown it, or a write that found no
    /// row — goes into `first` unless one is there already.
    func judge(_ raw: OpaquePointer, of writes: [PGPendingWrite], at index: Int, into first: inout (any Error)?) {
        guard first == nil, index < writes.count else { return PQclear(raw) }
        let write = writes[index]
        switch PQresultStatus(raw) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
            let rows = PQcmdTuples(raw).flatMap { Int(String(cString: $0)) } ?? 0
            let rolledBack = PQcmdStatus(raw).map { String(cString: $0) == "ROLLBACK" } ?? false
            PQclear(raw)
            if case .commit = write.kind, rolledBack {
                first = PostgresError(
                    .transactionAborted, sqlState: "25P02",
                    message: "a statement failed inside the transaction, so it cannot commit; it was rolled back")
            } else {
                first = write.verdict(changed: rows)
            }
        case PGRES_PIPELINE_ABORTED:
            PQclear(raw)
        default:
            first = write.failed(failure(PGResult(raw), sql: write.sql, arguments: write.arguments))
        }
    }

    /// Settles the waiting writes, ignoring their failures (before a `ROLLBACK`).
    func discardPipeline() {
        do { try settle() } catch {}
    }

    /// Reads a pipeline's results up to its sync's marker, handing each result (which the
    /// callback then owns) with the index of the statement it belongs to — statements are
    /// separated by a null result. False when the connection broke before the sync.
    func readPipeline(_ handle: OpaquePointer, _ each: (Int, OpaquePointer) -> Void) -> Bool {
        var index = 0
        var empty = 0
        while true {
            guard let raw = PQgetResult(handle) else {
                // The end of one statement's results; two in a row: nothing more is coming.
                if PQstatus(handle) != CONNECTION_OK || empty > 0 { return false }
                empty += 1
                index += 1
                continue
            }
            empty = 0
            if PQresultStatus(raw) == PGRES_PIPELINE_SYNC {
                PQclear(raw)
                return true
            }
            each(index, raw)
        }
    }
}
