import Dispatch
import Foundation
import ModelCore
import PostgresAdapter
import TestSupport
import Testing

/// The pool, lost connections, transactions killed halfway, change notifications
/// between adapters, and concurrency — against the real server.
@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipReason), .runsOffThePool)
struct PostgresServerTests {
    /// A second adapter on the same schema, standing for another process.
    func other(_ configuration: PostgresConfiguration) throws -> PostgresAdapter {
        try PostgresAdapter(configuration)
    }

    @Test func aBusyPoolTimesOutWithATypedError() throws {
        var configuration = PostgresTestServer.configuration()
        configuration.maximumConnections = 1
        configuration.acquireTimeout = .milliseconds(300)
        let store = try PostgresAdapter(configuration)
        try store.prepare(PgAccount.schema)
        let inside = DispatchSemaphore(value: 0)
        let finish = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        Thread {
            _ = try? store.withTransaction {
                inside.signal()
                finish.wait()
            }
            done.signal()
        }.start()
        inside.wait()
        let error = #expect(throws: PostgresError.self) { _ = try PgAccount.count(in: store) }
        #expect(error?.kind == .poolTimeout)
        finish.signal()
        done.wait()
        #expect(try PgAccount.count(in: store) == 0)
    }

    @Test func aConnectionKilledMidTransactionCommitsNothingAndThePoolRecovers() throws {
        let configuration = PostgresTestServer.configuration()
        let store = try PostgresAdapter(configuration)
        let killer = try other(configuration)
        try store.prepare(PgAccount.schema)
        #expect(throws: PostgresError.self) {
            try store.withTransaction {
                for k in 0..<3 { _ = try PgAccount.create(["owner": .string("a\(k)"), "balance": 10], in: store) }
                let pid = try store.rows("SELECT pg_backend_pid()")[0][0]
                _ = try killer.rows("SELECT pg_terminate_backend($1::int)", [pid])
                _ = try PgAccount.create(["owner": "after", "balance": 1], in: store)
            }
        }
        #expect(try PgAccount.count(in: killer) == 0)  // no partial commit
        _ = try PgAccount.create(["owner": "next", "balance": 1], in: store)  // a fresh connection
        #expect(try PgAccount.count(in: store) == 1)
    }

    @Test func idleConnectionsKilledByTheServerAreReplaced() throws {
        var configuration = PostgresTestServer.configuration()
        let name = "swiftmodel_idle_\(UInt32.random(in: 0...UInt32.max))"
        configuration.primary += " application_name=\(name)"
        configuration.listensForChanges = false
        let store = try PostgresAdapter(configuration)
        let killer = try other(PostgresTestServer.configuration(schema: configuration.schema))
        _ = try PgAccount.create(["owner": "a", "balance": 1], in: store)
        // As a server restart does: every connection of the store dies while idle.
        let killed = try killer.rows(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1", [.string(name)])
        #expect(!killed.isEmpty)
        Thread.sleep(forTimeInterval: 0.1)
        #expect(try PgAccount.count(in: store) == 1)  // a read is retried on a fresh connection
        _ = try PgAccount.create(["owner": "b", "balance": 1], in: store)  // suspect connections are pinged first
        #expect(try PgAccount.count(in: store) == 2)
    }

    @Test func anotherAdaptersCommitsRefreshThisAdaptersObservers() async throws {
        let configuration = PostgresTestServer.configuration()
        let watcher = try PostgresAdapter(configuration)
        let writer = try other(configuration)
        try watcher.prepare(PgAccount.schema)
        let counts = ModelStore.using(watcher) { PgAccount.query().observe { try $0.count() } }
        var iterator = counts.makeAsyncIterator()
        #expect(try await iterator.next() == 0)
        _ = try await PgAccount.create(["owner": "outside", "balance": 5], in: writer)  // published in the background
        #expect(try await iterator.next() == 1)
        try writer.withTransaction {
            _ = try PgAccount.create(["owner": "tx1", "balance": 1], in: writer)
            _ = try PgAccount.create(["owner": "tx2", "balance": 1], in: writer)
        }  // published with the COMMIT
        var seen = try await iterator.next()
        if seen == 2 { seen = try await iterator.next() }  // at most one intermediate
        #expect(seen == 3)
        #expect(throws: StoreError.self) {
            try writer.withTransaction {
                _ = try PgAccount.create(["owner": "rolled back", "balance": 1], in: writer)
                throw StoreError(.invalidRequest, table: "", message: "roll back")
            }
        }
        #expect(try await PgAccount.count(in: watcher) == 3)
    }

    @Test func serializableTransfersKeepTheTotalUnderConcurrency() throws {
        var configuration = PostgresTestServer.configuration()
        configuration.isolation = .serializable
        configuration.maximumConnections = 8
        let store = try PostgresAdapter(configuration)
        for k in 0..<10 { _ = try PgAccount.create(["owner": .string("o\(k)"), "balance": 100], in: store) }
        let conflicts = Locked(0)
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            var random = SystemRandomNumberGenerator()
            for _ in 0..<25 {
                let from = Int64.random(in: 1...10, using: &random), to = Int64.random(in: 1...10, using: &random)
                var attempts = 0
                while true {
                    attempts += 1
                    do {
                        try ModelStore.using(store) {
                            try store.transaction {
                                guard let a = try PgAccount.find(from), let b = try PgAccount.find(to), from != to else { return }
                                a.balance -= 3
                                b.balance += 3
                                try a.save()
                                try b.save()
                            }
                        }
                        break
                    } catch let error as PostgresError where error.kind == .transactionConflict && attempts < 50 {
                        conflicts.withLock { $0 += 1 }
                    } catch {
                        failures.withLock { $0.append("worker \(worker): \(error)") }
                        break
                    }
                }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(try PgAccount.query().using(store).sum("balance") == .int(1000))
    }
}
