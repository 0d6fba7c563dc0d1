import SwiftModelCLibPQ

/// One statement as the flights it needs on a connection, decided as results come back and
/// sent without waiting: a script (the simple protocol), or a statement with bound values
/// through the connection's statement cache — a first use prepares and describes it in one
/// pipeline, a full cache is deallocated first — with binary parameters and results.
/// Behind a transaction pooler (``PGSession/unnamedStatements``) statements go out unnamed
/// with their parameter types, and outside a transaction the session's local settings go
/// first in the same pipeline (everything before a sync is one transaction on one server
/// connection).
///
/// It does no I/O of its own beyond libpq's non-blocking sends: ``next(_:_:after:)`` sends
/// the next flight and hands it to the driver to read (``PGFlight``), or answers the result.
/// ``PGConnection/run(_:)`` and ``PGConnection/run(_:on:)`` drive it.
struct PGStatement {
    enum Kind {
        /// SQL without parameters, one or more statements (the simple protocol).
        case script
        /// One statement with these values bound.
        case bound([ModelValue])
        /// Only prepare (and describe) the statement into the cache.
        case prepare
    }

    /// What the driver does next.
    enum Step {
        /// Read this flight (already sent), then call ``next(_:_:after:)`` with its result.
        case read(PGFlight)
        /// The statement's answer.
        case done(PGResult?)
    }

    private enum Stage { case start, deallocated, described(name: String), executed }

    let sql: String
    let kind: Kind
    private var stage = Stage.start

    init(_ sql: String, _ kind: Kind) {
        self.sql = sql
        self.kind = kind
    }

    private var arguments: [ModelValue] {
        if case .bound(let arguments) = kind { return arguments }
        return []
    }

    /// Sends the statement's next flight, given the result of the one before (nil first).
    ///
    /// - Throws: ``PostgresError`` `.mismatch` for values that do not fit the statement, or
    ///   `.invalidSQL` for too many (nothing sent); `.connection` when a send failed.
    mutating func next(_ connection: PGConnection, _ handle: OpaquePointer, after previous: PGResult?) throws -> Step {
        switch stage {
        case .start:
            if case .script = kind { return try script(connection, handle) }
            try PGConnection.checkParameterCount(arguments, sql: sql)
            if let statement = connection.statements[sql] {
                if case .prepare = kind { return .done(nil) }
                return try execute(statement, connection, handle)
            }
            if !connection.session.unnamedStatements, connection.statements.count >= PGConnection.statementLimit {
                stage = .deallocated
                guard PQsendQuery(handle, "DEALLOCATE ALL") == 1 else { throw connection.failure(nil, sql: sql, arguments: []) }
                return .read(PGFlight(.last(sql: "DEALLOCATE ALL", arguments: []), pipelined: false))
            }
            return try prepare(connection, handle)
        case .deallocated:
            return try prepare(connection, handle)
        case .described(let name):
            let types = previous.map { description in
                (0..<PQnparams(description.handle)).map { UInt32(PQparamtype(description.handle, $0)) }
            } ?? []
            connection.statements[sql] = (name, types)
            if case .prepare = kind { return .done(nil) }
            return try execute((name, types), connection, handle)
        case .executed:
            return .done(previous)
        }
    }

    /// The script, after the local settings when due: one simple-protocol string runs as
    /// one transaction on one server connection.
    private mutating func script(_ connection: PGConnection, _ handle: OpaquePointer) throws -> Step {
        stage = .executed
        var text = sql
        if let local = connection.localSettings(handle) { text = sql.hasPrefix("BEGIN") ? sql + "; " + local : local + "; " + sql }
        guard PQsendQuery(handle, text) == 1 else { throw connection.failure(nil, sql: sql, arguments: []) }
        return .read(PGFlight(.last(sql: sql, arguments: []), pipelined: false))
    }

    /// Parse and Describe in one pipeline: named into the cache, or unnamed behind a pooler
    /// (after the local settings when due), to learn the parameter types the server infers.
    private mutating func prepare(_ connection: PGConnection, _ handle: OpaquePointer) throws -> Step {
        var name = ""
        var local: String?
        if connection.session.unnamedStatements {
            if connection.statements.count >= PGConnection.statementLimit { connection.statements.removeAll(keepingCapacity: true) }
            local = connection.localSettings(handle)
        } else {
            if case .deallocated = stage { connection.statements.removeAll(keepingCapacity: true) }
            connection.nextStatement += 1
            name = "swiftmodel_\(connection.nextStatement)"
        }
        stage = .described(name: name)
        try pipeline(connection, handle, arguments: []) {
            if let local, PQsendQueryParams(handle, local, 0, nil, nil, nil, nil, 1) != 1 { return false }
            return PQsendPrepare(handle, name, sql, 0, nil) == 1 && PQsendDescribePrepared(handle, name) == 1
        }
        return .read(PGFlight(.last(sql: sql, arguments: []), pipelined: true))
    }

    /// The prepared statement with the values bound: by name, or unnamed with its types
    /// behind a pooler (after the local settings, in one pipeline, when due).
    private mutating func execute(
        _ statement: (name: String, types: [UInt32]), _ connection: PGConnection, _ handle: OpaquePointer
    ) throws -> Step {
        let arguments = arguments
        let parameters = try connection.bind(arguments, to: statement.types, sql: sql)
        stage = .executed
        let count = Int32(arguments.count)
        guard connection.session.unnamedStatements else {
            let sent = parameters.withPointers { values, lengths, formats in
                PQsendQueryPrepared(handle, statement.name, count, values, lengths, formats, 1)
            }
            guard sent == 1 else { throw connection.failure(nil, sql: sql, arguments: arguments) }
            return .read(PGFlight(.last(sql: sql, arguments: arguments), pipelined: false))
        }
        let sql = sql
        let send = {
            parameters.withPointers { values, lengths, formats in
                statement.types.withUnsafeBufferPointer { PQsendQueryParams(handle, sql, count, $0.baseAddress, values, lengths, formats, 1) }
            } == 1
        }
        guard let local = connection.localSettings(handle) else {
            guard send() else { throw connection.failure(nil, sql: sql, arguments: arguments) }
            return .read(PGFlight(.last(sql: sql, arguments: arguments), pipelined: false))
        }
        try pipeline(connection, handle, arguments: arguments) { PQsendQueryParams(handle, local, 0, nil, nil, nil, nil, 1) == 1 && send() }
        return .read(PGFlight(.last(sql: sql, arguments: arguments), pipelined: true))
    }

    /// Sends what `send` queues in pipeline mode, then a sync; leaves pipeline mode when a
    /// send failed (the flight leaves it once read).
    private func pipeline(_ connection: PGConnection, _ handle: OpaquePointer, arguments: [ModelValue], _ send: () -> Bool) throws {
        guard PQenterPipelineMode(handle) == 1 else { throw connection.failure(nil, sql: sql, arguments: arguments) }
        guard send(), PQpipelineSync(handle) == 1 else {
            let error = connection.failure(nil, sql: sql, arguments: arguments)
            _ = PQexitPipelineMode(handle)
            throw error
        }
    }
}
