import Foundation
import ModelCore
import PostgresAdapter
import TestSupport
import Testing

/// Async transactions on PostgreSQL: the connection is lent without blocking, `BEGIN` is
/// queued rather than waited for, and the `NOTIFY`s and `COMMIT` join the pipelined writes,
/// so a transaction that only writes is one round trip; failures still surface, typed, and
/// roll everything back.
@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipReason), .runsOffThePool)
struct PostgresAsyncTransactionTests {
    /// A store whose one connection goes through `proxy`, which counts round trips.
    static func store(through proxy: GateProxy, publishes: Bool) throws -> PostgresAdapter {
        var configuration = PostgresTestServer.configuration()
        configuration.primary = proxy.conninfo
        configuration.maximumConnections = 1
        configuration.publishesChanges = publishes
        configuration.listensForChanges = false
        return try PostgresAdapter(configuration)
    }

    @Test(arguments: [false, true])
    func aTransactionThatOnlyWritesIsOneRoundTrip(publishes: Bool) async throws {
        let proxy = try GateProxy(targetConninfo: PostgresTestServer.url ?? "")
        defer { proxy.stop() }
        let store = try Self.store(through: proxy, publishes: publishes)
        defer { try? store.close() }
        // The first one prepares the table and statements and reserves a block of ids.
        try await store.transaction { _ in _ = try await PgTicket.create(["code": "warm"], in: store) }
        proxy.resetTurns()
        let id = try await store.transaction { _ in
            let ticket = try await PgTicket.create(["code": "one"], in: store)
            let other = try await PgTicket.create(["code": "two"], in: store)
            return [ticket.id, other.id]
        }
        #expect(proxy.clientTurns == 1, "BEGIN, two inserts, NOTIFY and COMMIT in one round trip (\(proxy.clientTurns))")
        #expect(try await PgTicket.query(in: store).where(\.code == "one").first()?.id == id[0])
        #expect(try await PgTicket.count(in: store) == 3)
    }

    @Test func aReadInsideSendsTheQueuedBeginWithIt() async throws {
        let store = try PostgresTestServer.store()
        defer { try? store.close() }
        _ = try await PgTicket.create(["code": "A"], in: store)
        let seen = try await store.transaction { _ in
            _ = try await PgTicket.create(["code": "B"], in: store)
            return try await PgTicket.count(in: store)  // inside: sees its own insert
        }
        #expect(seen == 2)
    }

    @Test func commitAfterACaughtFailureRollsBackWithATypedError() async throws {
        let store = try PostgresTestServer.store()
        defer { try? store.close() }
        _ = try await PgTicket.create(["code": "A"], in: store)
        let error = await #expect(throws: PostgresError.self) {
            try await store.transaction { _ in
                _ = try await PgTicket.create(["code": "A"], in: store)
                let flushed = Result { try store.flush() }  // caught: the transaction is aborted
                #expect((flushed.failure as? StoreError)?.kind == .uniqueViolation)
            }
        }
        #expect(error?.kind == .transactionAborted)
        // And with a write after the caught failure, waiting in the pipeline.
        let later = await #expect(throws: PostgresError.self) {
            try await store.transaction { _ in
                _ = try await PgTicket.create(["code": "A"], in: store)
                _ = Result { try store.flush() }
                _ = try await PgTicket.create(["code": "B"], in: store)
            }
        }
        #expect(later?.kind == .transactionAborted)
        #expect(try await PgTicket.all(in: store).map(\.code) == ["A"])
        try await store.transaction { _ in _ = try await PgTicket.create(["code": "C"], in: store) }
        #expect(try await PgTicket.count(in: store) == 2, "the connection is usable afterwards")
    }

    /// An update whose row went meanwhile fails on its row count, which only the client
    /// sees: `COMMIT` must not go out behind it unread, or the server commits the rest.
    @Test func anUpdateOfAVanishedRowFailsTheCommitAndCommitsNothing() async throws {
        let store = try PostgresTestServer.store()
        defer { try? store.close() }
        let other = try PostgresAdapter(store.configuration)
        defer { try? other.close() }
        let (kept, gone) = (try await PgTicket.create(["code": "kept"], in: store), try await PgTicket.create(["code": "gone"], in: store))
        let (keptID, goneID) = (try #require(kept.id), try #require(gone.id))
        let error = await #expect(throws: StoreError.self) {
            try await store.transaction { _ in
                guard let first = try await PgTicket.find(keptID, in: store), let second = try await PgTicket.find(goneID, in: store)
                else { return }
                _ = try await PgTicket.delete(id: goneID, in: other)  // another connection, committed
                first.code = "changed"
                try await first.save()
                second.code = "changed too"
                try await second.save()  // pipelined: its missing row shows in its result
            }
        }
        #expect(error?.kind == .notFound)
        #expect(try await PgTicket.find(keptID, in: store)?.code == "kept", "the transaction's other update did not commit")
        // And a delete whose row went meanwhile.
        let doomed = try await PgTicket.create(["code": "doomed"], in: store)
        let doomedID = try #require(doomed.id)
        let deleted = await #expect(throws: ModelError.self) {
            try await store.transaction { _ in
                guard let first = try await PgTicket.find(keptID, in: store), let third = try await PgTicket.find(doomedID, in: store)
                else { return }
                _ = try await PgTicket.delete(id: doomedID, in: other)
                first.code = "changed"
                try await first.save()
                _ = try await third.delete()
            }
        }
        #expect(deleted?.kind == .recordNotFound)
        #expect(try await PgTicket.find(keptID, in: store)?.code == "kept", "the update beside the delete did not commit")
    }

    @Test func aThrowingBodyRollsBackItsQueuedWrites() async throws {
        struct Failure: Error {}
        let store = try PostgresTestServer.store()
        defer { try? store.close() }
        await #expect(throws: Failure.self) {
            try await store.transaction { _ in
                _ = try await PgTicket.create(["code": "gone"], in: store)
                throw Failure()
            }
        }
        #expect(try await PgTicket.count(in: store) == 0)
        try await store.transaction { _ in _ = try await PgTicket.create(["code": "kept"], in: store) }
        #expect(try await PgTicket.all(in: store).map(\.code) == ["kept"])
    }

    @Test func aCommitUnderWayFinishesWhenItsTaskIsCancelled() async throws {
        let store = try PostgresTestServer.store()
        defer { try? store.close() }
        let ticket = try await PgTicket.create(["code": "locked"], in: store)
        let id = try #require(ticket.id)
        // Another session holds the row, so the transaction's COMMIT (which carries the
        // pipelined update) waits at the server.
        let blocker = try PostgresAdapter(store.configuration)
        defer { try? blocker.close() }
        let lockerPID = Locked<ModelValue?>(nil)
        let locked = DispatchSemaphore(value: 0)
        let unlock = DispatchSemaphore(value: 0)
        Thread {
            try? blocker.transaction {
                _ = try PgTicket.where(\.code == "locked").using(blocker).lockForUpdate().all()
                lockerPID.withLock { $0 = try? blocker.rows("SELECT pg_backend_pid()::int8")[0][0] }
                locked.signal()
                unlock.wait()
            }
        }.start()
        locked.wait()
        let pid = try #require(lockerPID.withLock { $0 })
        let task = Task(executorPreference: OffThePool.executor) {
            try await store.transaction { _ in
                guard let held = try await PgTicket.find(id, in: store) else { return "missing" }
                held.code = "committed"
                try await held.save(to: store)
                return "done"
            }
        }
        // Cancelled once the commit's pipeline (carrying the update) waits for the lock.
        let deadline = ContinuousClock.now + .seconds(30)
        while try store.rows("SELECT count(*)::int8 FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))", [pid])[0][0]
            == .int(0), ContinuousClock.now < deadline
        {
            try await Task.sleep(for: .milliseconds(20))
        }
        task.cancel()
        unlock.signal()
        #expect(try await task.value == "done", "the commit finished and said so")
        #expect(try await PgTicket.find(id, in: store)?.code == "committed")
    }
}
