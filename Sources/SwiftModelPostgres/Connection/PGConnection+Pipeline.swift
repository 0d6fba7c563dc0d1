import ModelSQL
import SwiftModelCLibPQ

/// A write sent in libpq's pipeline mode whose result has not been read yet, and what its
/// result must show: the error the write would have thrown had it waited is built from it
/// when the result arrives (``PGConnection/settle()``, read by ``PGFlight``).
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

    /// Whether the write fails on its row count (an update or delete that found no row),
    /// which the client judges and the server does not: a `COMMIT` sent behind it unread
    /// would commit the transaction's other writes.
    var failsOnRowCount: Bool {
        switch kind {
        case .update, .delete: true
        case .insert, .plain, .commit: false
        }
    }

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
        if statements[write.sql] == nil { try prepare(write.sql) }
        let handle = try live()
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
}
