import AdapterConformance
import Foundation
import PostgresAdapter
import TestSupport
import Testing

/// PostgresAdapter behind PgBouncer in transaction pooling mode (1.18: no named prepared
/// statements across transactions, no session state): the conformance suite, settings that
/// apply per transaction and never leak to the pooler's other clients, sync, async and
/// pipelined calls, and change notifications heard through a listener on the server itself.
@Suite(
    .enabled(if: PostgresTestServer.isAvailable && PostgresTestServer.poolerURL != nil, PostgresTestServer.poolerSkipReason),
    .runsOffThePool)
struct PostgresPoolerTests {
    static let suite = PostgresConformanceTests.suite("PostgresAdapter through PgBouncer") {
        PostgresTestServer.pooledConfiguration()
    }

    @Test(arguments: ConformanceGroup.allCases) func conformance(_ group: ConformanceGroup) async {
        let report = await Self.suite.run([group])
        for failure in report.failures { Issue.record(Comment(rawValue: failure.description)) }
        #expect((report.checked[group] ?? 0) > 0, "\(report)")
    }

    /// The server connection behind a statement, and the schema it ran in.
    static func session(_ store: PostgresAdapter) throws -> (pid: Int64, schema: String) {
        let row = try store.rows("SELECT pg_backend_pid()::int8 AS pid, current_schema()::text AS schema")[0]
        guard case .int(let pid) = row["pid"] ?? .null, case .string(let schema) = row["schema"] ?? .null else {
            throw StoreError(.invalidRequest, table: "", message: "no session row")
        }
        return (pid, schema)
    }

    @Test func schemasApplyPerStatementAndNeverLeakToOtherClients() throws {
        let (a, b) = (PostgresTestServer.freshSchema(), PostgresTestServer.freshSchema())
        let storeA = try PostgresAdapter(PostgresTestServer.pooledConfiguration(schema: a))
        let storeB = try PostgresAdapter(PostgresTestServer.pooledConfiguration(schema: b))
        var plain = PostgresConfiguration(PostgresTestServer.poolerURL ?? "")
        plain.transactionPooling = true
        let bare = try PostgresAdapter(plain)
        _ = try PgTicket.create(["code": "in a"], in: storeA)
        _ = try PgTicket.create(["code": "in b"], in: storeB)
        // Many calls from three clients at once share PgBouncer's server connections.
        let wrong = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 12) { worker in
            for _ in 0..<30 {
                do {
                    switch worker % 3 {
                    case 0:
                        let seen = (try PgTicket.all(in: storeA).map(\.code), try Self.session(storeA).schema)
                        if seen != (["in a"], a) { wrong.withLock { $0.append("A saw \(seen)") } }
                    case 1:
                        let seen = (try PgTicket.all(in: storeB).map(\.code), try Self.session(storeB).schema)
                        if seen != (["in b"], b) { wrong.withLock { $0.append("B saw \(seen)") } }
                    default:
                        let schema = try Self.session(bare).schema
                        if schema != "public" { wrong.withLock { $0.append("bare saw \(schema)") } }
                    }
                } catch {
                    wrong.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(wrong.withLock { $0 }.isEmpty, "\(wrong.withLock { $0.prefix(5) })")
    }

    @Test func theStatementTimeoutAppliesPerTransactionOnly() throws {
        var configuration = PostgresTestServer.pooledConfiguration()
        configuration.statementTimeout = .milliseconds(150)
        let strict = try PostgresAdapter(configuration)
        let patient = try PostgresAdapter(PostgresTestServer.pooledConfiguration())
        for _ in 0..<3 {
            let outside = #expect(throws: PostgresError.self) { try strict.execute("SELECT pg_sleep(0.6)") }
            #expect(outside?.kind == .cancelled)
            let inside = #expect(throws: PostgresError.self) { try strict.withTransaction { try strict.execute("SELECT pg_sleep(0.6)") } }
            #expect(inside?.kind == .cancelled)
            try patient.execute("SELECT pg_sleep(0.3)")  // no timeout left behind on a shared connection
        }
    }

    @Test func pipelinedTransactionsWorkThroughThePooler() throws {
        let store = try PostgresAdapter(PostgresTestServer.pooledConfiguration())
        try store.transaction {
            for k in 0..<1_200 { _ = try PgTicket.create(["code": .string("t\(k)")], in: store) }
        }
        #expect(try PgTicket.count(in: store) == 1_200)
        let duplicate = #expect(throws: StoreError.self) {
            try store.transaction { _ = try PgTicket.create(["code": "t7"], in: store) }
        }
        #expect(duplicate?.kind == .uniqueViolation)
    }

    @Test func asyncCallsWorkThroughThePooler() async throws {
        let store = try PostgresAdapter(PostgresTestServer.pooledConfiguration())
        try await withThrowingTaskGroup(of: Void.self) { group in
            for k in 0..<40 {
                group.addTask {
                    let ticket = try await PgTicket.create(["code": .string("async \(k)")], in: store)
                    #expect(try await PgTicket.find(ticket.id ?? -1, in: store)?.code == "async \(k)")
                }
            }
            try await group.waitForAll()
        }
        #expect(try await PgTicket.count(in: store) == 40)
    }

    @Test func observersHearOtherProcessesThroughAListenerOnTheServer() async throws {
        let schema = PostgresTestServer.freshSchema()
        var watching = PostgresTestServer.pooledConfiguration(schema: schema)
        var direct = PostgresConfiguration(PostgresTestServer.url ?? "")
        direct.schema = schema
        watching.listenConnection = direct.primary
        let watcher = try PostgresAdapter(watching)
        let writer = try PostgresAdapter(PostgresTestServer.pooledConfiguration(schema: schema))
        try watcher.prepare(PgAccount.schema)
        let counts = ModelStore.using(watcher) { PgAccount.query().observe { try $0.count() } }
        var iterator = counts.makeAsyncIterator()
        #expect(try await iterator.next() == 0)
        try Self.twoAccounts(writer)
        var seen = try await iterator.next()
        if seen == 1 { seen = try await iterator.next() }
        #expect(seen == 2)
    }

    static func twoAccounts(_ writer: PostgresAdapter) throws {
        try writer.withTransaction {
            _ = try PgAccount.create(["owner": "tx1", "balance": 1], in: writer)
            _ = try PgAccount.create(["owner": "tx2", "balance": 1], in: writer)
        }
    }
}
