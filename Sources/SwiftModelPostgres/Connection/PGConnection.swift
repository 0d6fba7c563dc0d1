import Foundation
import SwiftModelCLibPQ

/// One libpq connection with its prepared-statement cache.
///
/// Not thread-safe by itself: a connection is used by one thread at a time, lent by the
/// ``ConnectionPool`` (or pinned to the thread that has a transaction open on it).
package final class PGConnection: @unchecked Sendable {
    // @unchecked Sendable: used by one thread at a time — the pool's lock hands it out and
    // takes it back; its mutable state (`statements`, `handle`) is only touched by the
    // borrowing thread.

    private(set) var handle: OpaquePointer?
    /// Prepared statements by SQL text: server-side name and the parameter types the
    /// server inferred.
    var statements: [String: (name: String, types: [UInt32])] = [:]
    var nextStatement = 0
    /// Statements kept per connection before the cache is dropped and rebuilt.
    static let statementLimit = 512
    /// Writes sent in pipeline mode whose results are unread (`PGConnection+Pipeline.swift`);
    /// while any are, the connection is in libpq's pipeline mode.
    var pending: [PGPendingWrite] = []

    /// How the session is set up and how statements are sent (behind a transaction pooler).
    let session: PGSession

    /// Connects with a libpq connection string and runs the session's setup.
    ///
    /// - Throws: ``PostgresError`` `.connection` with libpq's message.
    convenience init(conninfo: String, session: PGSession) throws {
        guard let handle = PQconnectdb(conninfo) else {
            throw PostgresError(.connection, message: "libpq could not allocate a connection")
        }
        guard PQstatus(handle) == CONNECTION_OK else { throw Self.failedConnection(handle) }
        self.init(connected: handle, session: session)
        for sql in session.setup { try execute(sql) }
    }

    /// Takes over a handle that has connected (the session's setup not yet run).
    init(connected handle: OpaquePointer, session: PGSession) {
        self.session = session
        self.handle = handle
        swiftmodel_pg_silence_notices(handle)
    }

    /// The error of a handle that failed to connect, which it frees.
    static func failedConnection(_ handle: OpaquePointer) -> PostgresError {
        let message = String(cString: PQerrorMessage(handle)).trimmingSpaces
        PQfinish(handle)
        return PostgresError(.connection, message: message.isEmpty ? "could not connect to the server" : message)
    }

    deinit { close() }

    func close() {
        if let handle { PQfinish(handle) }
        handle = nil
    }

    /// Whether the connection is usable (open, not broken).
    var isHealthy: Bool {
        guard let handle else { return false }
        return PQstatus(handle) == CONNECTION_OK
    }

    /// Whether a transaction block is open (or failed and not yet rolled back).
    package var isInTransaction: Bool {
        guard let handle else { return false }
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    /// Whether the open transaction failed: it can only roll back.
    var isAborted: Bool {
        guard let handle else { return false }
        return PQtransactionStatus(handle) == PQTRANS_INERROR
    }

    func live() throws -> OpaquePointer {
        guard let handle, PQstatus(handle) == CONNECTION_OK else {
            throw PostgresError(.connection, message: "the connection to the server was lost")
        }
        return handle
    }

    /// The error for a failed call: the server's fields, or libpq's message when the
    /// connection itself failed.
    func failure(_ result: PGResult?, sql: String?, arguments: [ModelValue]) -> PostgresError {
        if let result, PQresultErrorField(result.handle, swiftmodel_pg_diag_sqlstate) != nil {
            return result.error(sql: sql, arguments: arguments)
        }
        let message = handle.map { String(cString: PQerrorMessage($0)).trimmingSpaces } ?? "the connection is closed"
        return PostgresError(.connection, message: message.isEmpty ? "the connection to the server was lost" : message,
            sql: sql, arguments: arguments)
    }

    /// The most values one statement binds. The protocol counts parameters in 16 bits,
    /// but libpq (through 15 at least) takes a server message over 30,000 bytes for a
    /// lost connection unless it is of a few kinds, and the parameter description the
    /// adapter asks for on preparing (4 bytes per parameter) is not one of them.
    static let parameterLimit = 7_498

    /// Refuses a statement binding more values than ``parameterLimit`` before anything is
    /// sent, leaving the connection usable; sent, it would break the connection (libpq
    /// reports "lost synchronization with server") and the pool would drop it.
    ///
    /// - Throws: ``PostgresError`` `.invalidSQL`.
    static func checkParameterCount(_ arguments: [ModelValue], sql: String) throws {
        guard arguments.count > parameterLimit else { return }
        throw PostgresError(
            .invalidSQL,
            message: "the statement binds \(arguments.count) values; the adapter sends at most \(parameterLimit) per statement",
            sql: sql)
    }

    /// `arguments` encoded as the parameter `types` the server inferred for `sql`.
    func bind(_ arguments: [ModelValue], to types: [UInt32], sql: String) throws -> PGParameters {
        guard types.count == arguments.count else {
            throw PostgresError(
                .mismatch, message: "the statement has \(types.count) parameters, \(arguments.count) values given",
                sql: sql, arguments: arguments)
        }
        var parameters = PGParameters(capacity: arguments.count)
        do {
            for (value, type) in zip(arguments, types) { try parameters.append(value, as: type) }
        } catch let error as PostgresError {
            throw error.with(sql: sql, arguments: arguments)
        }
        return parameters
    }
}
