import Foundation
import PostgresAdapter
import TestSupport
import Testing

/// Async calls on libpq's non-blocking API: they hold no thread while the server works,
/// and cancelling one cancels its statement on the server.
@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipReason), .runsOffThePool)
struct PostgresAsyncIOTests {
    /// An adapter whose sessions carry a unique `application_name` (to find them in
    /// `pg_stat_activity`), a second one on the same schema to hold row locks, and a
    /// ticket whose row that one locks.
    struct Fixture {
        let store: PostgresAdapter
        let locker: PostgresAdapter
        let application: String
        let ticket: PgTicket

        init(connections: Int) async throws {
            application = "swiftmodel_asyncio_" + PostgresTestServer.freshSchema()
            var configuration = PostgresTestServer.configuration()
            let lockerConfiguration = configuration
            configuration.primary += " application_name=\(application)"
            configuration.maximumConnections = connections
            store = try PostgresAdapter(configuration)
            locker = try PostgresAdapter(lockerConfiguration)
            ticket = try await PgTicket.create(["code": "T0"], in: store)
        }

        /// Runs `body` while a transaction of `locker`, on a thread of its own, holds the
        /// ticket's row lock, until `body` calls the unlock function it is given (or returns).
        func whileLocked<R>(_ body: (_ unlock: @escaping @Sendable () -> Void) async throws -> R) async throws -> R {
            let locked = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
            let table = PgTicket.schema.tableName
            let (locker, id) = (locker, ticket.id ?? -1)
            Thread {
                try? locker.withTransaction {
                    _ = try locker.execute("UPDATE \(table) SET code = 'L' WHERE id = $1", [.int(id)])
                    locked.signal()
                    release.wait()
                    throw CancellationError()  // roll back
                }
                done.signal()
            }.start()
            locked.wait()
            let unlocked = Locked(false)
            let unlock: @Sendable () -> Void = {
                let first = unlocked.withLock { done in
                    defer { done = true }
                    return !done
                }
                if first { release.signal() }
            }
            defer {
                unlock()
                done.wait()
            }
            return try await body(unlock)
        }

        /// How many of `store`'s sessions wait for a lock.
        func waitingSessions() throws -> Int {
            let rows = try locker.rows(
                "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'",
                [.string(application)])
            if case .int(let n)? = rows.first?["n"] { return Int(n) }
            return -1
        }

        /// Polls until `condition` holds (true) or 90 s pass (false). (Under Thread
        /// Sanitizer on 2 busy cores, 16 sessions once took just over 10 s to reach their
        /// lock wait, and once only 7 of them had after 30 s; the poll returns as soon as
        /// the condition holds.)
        func eventually(_ condition: () throws -> Bool) async throws -> Bool {
            let deadline = ContinuousClock.now + .seconds(90)
            while ContinuousClock.now < deadline {
                if try condition() { return true }
                try await Task.sleep(for: .milliseconds(20))
            }
            return false
        }

        func close() {
            try? store.close()
            try? locker.close()
        }
    }

    /// 16 async updates blocked on a row lock are all at the server at once: each suspends
    /// on the event loop instead of holding one of the few blocking-pool threads (with
    /// that pool, at most `blockingThreadCount` were ever in flight).
    @Test func asyncCallsWaitingOnTheServerHoldNoThread() async throws {
        let fixture = try await Fixture(connections: 20)
        defer { fixture.close() }
        let id = try #require(fixture.ticket.id)
        let store = fixture.store
        try await fixture.whileLocked { unlock in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for k in 0..<16 {
                    group.addTask {
                        _ = try await PgTicket.where(\.id == id).using(store).updateAll(["code": .string("T\(k + 1)")])
                    }
                }
                let allWaiting = try await fixture.eventually { try fixture.waitingSessions() == 16 }
                let waiting = try fixture.waitingSessions()
                #expect(allWaiting, "\(waiting) of 16 updates reached the server")
                unlock()
                try await group.waitForAll()
            }
        }
        #expect(try await PgTicket.find(id, in: fixture.store) != nil)
    }

    /// Cancelling an async call blocked at the server ends it with `CancellationError`
    /// promptly, cancels the statement on the server, and leaves the adapter usable.
    @Test func cancellingAnAsyncCallCancelsItsStatement() async throws {
        let fixture = try await Fixture(connections: 4)
        defer { fixture.close() }
        let id = try #require(fixture.ticket.id)
        let store = fixture.store
        try await fixture.whileLocked { unlock in
            let update = Task(executorPreference: OffThePool.executor) {
                try await PgTicket.where(\.id == id).using(store).updateAll(["code": "X"])
            }
            let blocked = try await fixture.eventually { try fixture.waitingSessions() == 1 }
            #expect(blocked)
            let cancelled = ContinuousClock.now
            let stillLocked = Locked(true)
            update.cancel()
            // Unlock after 60 s at the latest, so a call that ignores cancellation finishes
            // (and fails the test) instead of waiting forever. The call must end while the
            // lock is still held: only a cancelled statement can. (A 2 s fallback fired
            // first once, when a loaded runner stalled the whole process.)
            Thread {
                Thread.sleep(forTimeInterval: 60)
                stillLocked.withLock { $0 = false }
                unlock()
            }.start()
            await #expect(throws: CancellationError.self) { try await update.value }
            #expect(stillLocked.withLock { $0 }, "the call ended only when the row was unlocked")
            #expect(ContinuousClock.now - cancelled < .seconds(30))
            let gone = try await fixture.eventually { try fixture.waitingSessions() == 0 }
            #expect(gone, "the statement kept waiting on the server")
        }
        #expect(try await PgTicket.find(id, in: fixture.store)?.code == "T0")
        #expect(try await PgTicket.where(\.id == id).using(fixture.store).updateAll(["code": "Y"]) == 1)
    }
}
