import Foundation
import SwiftModelCLibPQ
import Testing

@testable import SwiftModelPostgres

/// The blocking and the async driver run the same statement and flight machines
/// (``PGStatement``, ``PGFlight``): the same operations, run once by each on a fresh
/// connection, must give the same answers and the same protocol transcript — libpq's own
/// trace of every message sent and received (`PQtrace`, timestamps and OIDs suppressed,
/// the session's temporary schema named alike).
@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipReason))
struct PGStatementTests {
    /// One operation on a connection, run by either driver.
    struct Operation {
        let name: String
        let blocking: (PGConnection) throws -> PGResult?
        let async: (PGConnection, PGEventLoop) async throws -> PGResult?

        static func script(_ sql: String) -> Operation {
            Operation(name: sql, blocking: { try $0.execute(sql) }, async: { try await $0.execute(sql, on: $1) })
        }

        static func query(_ sql: String, _ arguments: [ModelValue]) -> Operation {
            Operation(
                name: sql, blocking: { try $0.query(sql, arguments) }, async: { try await $0.query(sql, arguments, on: $1) })
        }

        /// Statements queued in the pipeline without parameters, then settled.
        static func pipeline(_ statements: [String], commit: Bool) -> Operation {
            func queue(_ connection: PGConnection) throws {
                for sql in statements { try connection.sendUnprepared(sql) }
                if commit { try connection.sendUnprepared("COMMIT", as: .commit) }
            }
            return Operation(
                name: statements.joined(separator: "; "),
                blocking: { connection in
                    try queue(connection)
                    try connection.settle()
                    return nil
                },
                async: { connection, loop in
                    try queue(connection)
                    try await connection.settle(on: loop)
                    return nil
                })
        }
    }

    /// What an operation answered: its rows as values, or its error.
    static func answer(_ body: () async throws -> PGResult?) async -> String {
        do {
            guard let result = try await body() else { return "settled" }
            let rows = (0..<result.rowCount).map { r in
                (0..<result.columnCount).map { c in "\(result.value(r, c, oid: result.oid(c)))" }.joined(separator: ",")
            }
            return "\(result.affectedRows) changed; rows: " + rows.joined(separator: " | ")
        } catch {
            return "error: \(error)"
        }
    }

    /// Runs `operations` on a fresh connection of `session` with its trace on; the answers
    /// and the transcript.
    static func run(_ operations: [Operation], conninfo: String, session: PGSession, async: Bool) async throws -> (
        answers: [String], transcript: String
    ) {
        let connection = try PGConnection(conninfo: conninfo, session: session)
        let loop = try PGEventLoop()
        defer { loop.stop() }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pgtrace-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try #require(fopen(path, "w"))
        let handle = try #require(connection.handle)
        PQtrace(handle, file)
        PQsetTraceFlags(handle, PQTRACE_SUPPRESS_TIMESTAMPS | PQTRACE_REGRESS_MODE)
        var answers: [String] = []
        for operation in operations {
            let answer =
                async
                ? await answer { try await operation.async(connection, loop) }
                : await answer { try operation.blocking(connection) }
            answers.append("\(operation.name) → \(answer)")
        }
        if let handle = connection.handle { PQuntrace(handle) }
        fclose(file)
        // The temporary schema is named after the backend's slot, which differs by session.
        let transcript = try String(contentsOfFile: path, encoding: .utf8)
            .replacing(/pg_temp_[0-9]+/, with: "pg_temp_N")
        return (answers, transcript)
    }

    static func compare(_ operations: [Operation], conninfo: String, session: PGSession) async throws {
        let blocking = try await run(operations, conninfo: conninfo, session: session, async: false)
        let async = try await run(operations, conninfo: conninfo, session: session, async: true)
        #expect(blocking.answers == async.answers)
        #expect(blocking.transcript == async.transcript)
        #expect(!blocking.transcript.isEmpty)
    }

    @Test func bothDriversSendAndReadTheSameMessagesOnADirectConnection() async throws {
        let url = try #require(PostgresTestServer.url)
        var operations: [Operation] = [
            .script("CREATE TEMP TABLE trace_t (id bigint PRIMARY KEY, name text NOT NULL)"),
            .query("INSERT INTO trace_t (id, name) VALUES ($1, $2)", [.int(1), .string("one")]),  // prepared, then run
            .query("INSERT INTO trace_t (id, name) VALUES ($1, $2)", [.int(2), .string("two")]),  // from the cache
            .query("INSERT INTO trace_t (id, name) VALUES ($1, $2)", [.int(1), .string("again")]),  // the server refuses
            .query("INSERT INTO trace_t (id, name) VALUES ($1, $2)", [.int(3)]),  // refused before sending
            .query("SELECT id, name FROM trace_t WHERE id >= $1 ORDER BY id", [.int(0)]),
            .script("SELECT 1; SELECT 2"),
            .script("SELECT 1/0"),
            .pipeline(["BEGIN", "INSERT INTO trace_t VALUES (10, 'ten')", "INSERT INTO trace_t VALUES (11, 'eleven')"], commit: true),
            .pipeline(["BEGIN", "INSERT INTO trace_t VALUES (2, 'dup')", "INSERT INTO trace_t VALUES (12, 'twelve')"], commit: true),
            .query("SELECT count(*) FROM trace_t WHERE id > $1", [.int(0)]),
        ]
        // Past the statement cache: the connection deallocates and prepares anew.
        operations += (0...PGConnection.statementLimit).map { k in .query("SELECT $1::int8 + \(k)", [.int(Int64(k))]) }
        operations.append(.query("INSERT INTO trace_t (id, name) VALUES ($1, $2)", [.int(4), .string("four")]))
        try await Self.compare(operations, conninfo: url, session: PGSession())
    }

    @Test(.enabled(if: PostgresTestServer.poolerURL != nil, PostgresTestServer.poolerSkipReason))
    func bothDriversSendAndReadTheSameMessagesBehindATransactionPooler() async throws {
        let url = try #require(PostgresTestServer.poolerURL)
        let session = PGSession(
            setup: ["SET TIME ZONE 'UTC'"], unnamedStatements: true,
            localSettings: "SELECT set_config('statement_timeout', '5000', true)")
        let operations: [Operation] = [
            .query("SELECT $1::int8 + 1, current_setting('statement_timeout')", [.int(41)]),  // described, then run
            .query("SELECT $1::int8 + 1, current_setting('statement_timeout')", [.int(1)]),  // types cached
            .query("SELECT 1 / $1::int8", [.int(0)]),
            .script("SELECT current_setting('statement_timeout')"),
            .pipeline(["BEGIN", "SELECT set_config('statement_timeout', '7000', true)", "SELECT 1"], commit: true),
            .query("SELECT $1::text", [.int(3)]),
        ]
        try await Self.compare(operations, conninfo: url, session: session)
    }
}
