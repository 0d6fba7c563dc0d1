import SwiftModelCLibPQ

/// Statements behind a transaction pooler (``PGSession/unnamedStatements``): each
/// statement goes out unnamed with its parameter types — Parse, Bind, Execute and Sync in
/// one message flight, so the pooler runs all of it on one server connection — and the
/// types are described once per connection, in a pipeline ending in one sync. Outside a
/// transaction the session's local settings (``PGSession/localSettings``) go first in the
/// same pipeline: everything before a sync is one transaction on one server connection.
extension PGConnection {
    /// The local-settings statement to send before a statement, when the session has one
    /// and no transaction is open (a transaction got them with its `BEGIN`).
    func localSettings(_ handle: OpaquePointer) -> String? {
        guard let local = session.localSettings, PQtransactionStatus(handle) == PQTRANS_IDLE else { return nil }
        return local
    }

    /// Runs `sql` unnamed with `parameters` of `types`, after the local settings when due.
    func queryUnnamed(
        _ sql: String, _ arguments: [ModelValue], _ types: [UInt32], _ parameters: PGParameters, _ handle: OpaquePointer
    ) throws -> PGResult {
        let count = Int32(arguments.count)
        guard let local = localSettings(handle) else {
            let raw = parameters.withPointers { values, lengths, formats in
                types.withUnsafeBufferPointer { PQexecParams(handle, sql, count, $0.baseAddress, values, lengths, formats, 1) }
            }
            return try check(raw, sql: sql, arguments: arguments)
        }
        return try pipeline(handle, sql: sql, arguments: arguments) {
            guard PQsendQueryParams(handle, local, 0, nil, nil, nil, nil, 1) == 1 else { return false }
            return parameters.withPointers { values, lengths, formats in
                types.withUnsafeBufferPointer { PQsendQueryParams(handle, sql, count, $0.baseAddress, values, lengths, formats, 1) }
            } == 1
        }
    }

    /// The parameter types the server infers for `sql`, from a Parse and a Describe of the
    /// unnamed statement in one pipeline; cached by SQL text.
    func describeUnnamed(_ sql: String, _ handle: OpaquePointer) throws -> (name: String, types: [UInt32]) {
        if statements.count >= Self.statementLimit { statements.removeAll(keepingCapacity: true) }
        let local = localSettings(handle)
        let description = try pipeline(handle, sql: sql, arguments: []) {
            if let local, PQsendQueryParams(handle, local, 0, nil, nil, nil, nil, 1) != 1 { return false }
            return PQsendPrepare(handle, "", sql, 0, nil) == 1 && PQsendDescribePrepared(handle, "") == 1
        }
        let types = (0..<PQnparams(description.handle)).map { UInt32(PQparamtype(description.handle, $0)) }
        statements[sql] = ("", types)
        return ("", types)
    }

    /// Sends what `send` queues in pipeline mode, then a sync, and reads every result;
    /// returns the last statement's result or throws the first failure.
    private func pipeline(_ handle: OpaquePointer, sql: String, arguments: [ModelValue], _ send: () -> Bool) throws -> PGResult {
        guard PQenterPipelineMode(handle) == 1 else { throw failure(nil, sql: sql, arguments: arguments) }
        defer { _ = PQexitPipelineMode(handle) }
        guard send(), PQpipelineSync(handle) == 1 else { throw failure(nil, sql: sql, arguments: arguments) }
        var last: PGResult?
        var failed: PostgresError?
        let synced = readPipeline(handle) { _, raw in
            let result = PGResult(raw)
            switch PQresultStatus(raw) {
            case PGRES_TUPLES_OK, PGRES_COMMAND_OK, PGRES_EMPTY_QUERY: last = result
            case PGRES_PIPELINE_ABORTED: break
            default: if failed == nil { failed = failure(result, sql: sql, arguments: arguments) }
            }
        }
        if !synced, failed == nil { failed = failure(nil, sql: sql, arguments: arguments) }
        if let failed { throw failed }
        guard let last else { throw failure(nil, sql: sql, arguments: arguments) }
        return last
    }
}
