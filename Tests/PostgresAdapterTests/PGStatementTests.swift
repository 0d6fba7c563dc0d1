import Foundation
import ModelSQL
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
        /// The answer, described (see ``describe(_:)``).
        let blocking: (PGConnection) throws -> String
        let async: (PGConnection, PGEventLoop) async throws -> String

        static func script(_ sql: String) -> Operation {
            Operation(
                name: sql, blocking: { describe(try $0.execute(sql)) }, async: { describe(try await $0.execute(sql, on: $1)) })
        }

        static func query(_ sql: String, _ arguments: [ModelValue]) -> Operation {
            Operation(
                name: sql, blocking: { describe(try $0.query(sql, arguments)) },
                async: { describe(try await $0.query(sql, arguments, on: $1)) })
        }

        /// A store operation's call (``SQLCall``), made as the adapter's blocking and async
        /// drivers make it (``PGConnection/reply(to:)``, ``PGConnection/reply(to:on:)``).
        static func call(_ name: String, _ call: SQLCall) -> Operation {
            Operation(
                name: name, blocking: { describe(try $0.reply(to: call)) }, async: { describe(try await $0.reply(to: call, on: $1)) })
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
                    return "settled"
                },
                async: { connection, loop in
                    try queue(connection)
                    try await connection.settle(on: loop)
                    return "settled"
                })
        }
    }

    /// What an operation answered, or its error.
    static func answer(_ body: () async throws -> String) async -> String {
        do {
            return try await body()
        } catch {
            return "error: \(error)"
        }
    }

    /// A result's rows as values.
    static func describe(_ result: PGResult) -> String {
        let rows = (0..<result.rowCount).map { r in
            (0..<result.columnCount).map { c in "\(result.value(r, c, oid: result.oid(c)))" }.joined(separator: ",")
        }
        return "\(result.affectedRows) changed; rows: " + rows.joined(separator: " | ")
    }

    /// A call's reply.
    static func describe(_ reply: SQLReply) -> String {
        switch reply {
        case .rows(let rows): "rows: \(rows)"
        case .row(let row): "row: " + (row.map { "\($0)" } ?? "none")
        case .count(let count): "count: \(count)"
        case .id(let id): "id: \(id)"
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

    /// The answers, when both drivers gave the same ones with the same transcript.
    @discardableResult
    static func compare(_ operations: [Operation], conninfo: String, session: PGSession) async throws -> [String] {
        let blocking = try await run(operations, conninfo: conninfo, session: session, async: false)
        let async = try await run(operations, conninfo: conninfo, session: session, async: true)
        #expect(blocking.answers == async.answers)
        #expect(blocking.transcript == async.transcript)
        #expect(!blocking.transcript.isEmpty)
        return blocking.answers
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

    /// The store operations of the adapter, as calls on one table: each sends the same
    /// statements and reads the same results whichever driver makes it (`PostgresAdapter`'s
    /// blocking operations and its `AsyncPersistenceAdapter` ones run these calls).
    @Test func bothDriversMakeTheSameCallsOfStoreOperations() async throws {
        let url = try #require(PostgresTestServer.url)
        var configuration = PostgresTestServer.configuration()
        let adapter = try PostgresAdapter(configuration)
        defer { try? adapter.close() }
        let table = try adapter.table(for: PgTicket.schema)
        let schema = try #require(configuration.schema)
        configuration.primary = url
        let id = ModelValue.int(7)
        var row = [ModelValue](repeating: .null, count: PgTicket.schema.columns.count)
        row[1] = .string("T7")
        var explicit = row
        explicit[0] = id
        explicit[1] = .string("T8")
        var after = row
        after[1] = .string("T9")
        let operations: [Operation] = [
            // Each driver's run starts from an empty table and a fresh sequence.
            .call("clear", .run("TRUNCATE \(table.name) RESTART IDENTITY", [])),
            .call("insert generating its id", .insert(row, table)),
            .call("insert with an explicit id, bumping the sequence", .insert(explicit, table)),
            .call("insert of a stored id", .insert(explicit, table)),
            .call("insert generating the id after the explicit one", .insert(after, table)),
            .call("find", .find(id, table)),
            .call("find of no row", .find(.int(-1), table)),
            .call("rows", .rows("SELECT \(table.columnList) FROM \(table.name) ORDER BY 1", [], table)),
            .call("integer", .integer("SELECT count(*) FROM \(table.name) WHERE id > $1", [.int(0)])),
            .call("update of a row", .updateRow(explicit, columns: [1], table)),
            .call("run", .run(table.deleteSQL, [id])),
        ]
        let session = PGSession(setup: ["SET search_path TO \"\(schema)\""])
        let answers = try await Self.compare(operations, conninfo: url, session: session)
        #expect(answers.count == operations.count)
        #expect(answers[1].hasSuffix("id: 1"))
        #expect(answers[2].hasSuffix("id: 7"))
        #expect(answers[3].contains("error: PostgreSQL uniqueViolation"))
        #expect(answers[4].hasSuffix("id: 8"))  // the sequence moved past the explicit id
        #expect(answers[5].contains("\"T8\""))
        #expect(answers[6].hasSuffix("row: none"))
        #expect(answers[8].hasSuffix("count: 3"))
        #expect(answers[9].hasSuffix("count: 1") && answers[10].hasSuffix("count: 1"))
    }
}
