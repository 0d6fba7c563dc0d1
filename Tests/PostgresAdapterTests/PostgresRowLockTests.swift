import Foundation
import PostgresAdapter
import Testing

final class PgCounter: Model {
    @Column var name: String = ""
    @Column var value: Int = 0
    init() {}
}

/// `lockForUpdate()` on PostgreSQL: `FOR UPDATE` with its wait modes, against a row another
/// connection's transaction holds.
@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipReason))
struct PostgresRowLockTests {
    /// Runs `body` while another adapter's transaction, on a thread of its own, holds the
    /// row lock of the counter named "held".
    func whileHeld<R>(_ store: PostgresAdapter, _ body: () throws -> R) throws -> R {
        var configuration = PostgresTestServer.configuration(schema: store.configuration.schema)
        configuration.listensForChanges = false
        let holder = try PostgresAdapter(configuration)
        defer { try? holder.close() }
        let locked = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        Thread {
            try? holder.transaction {
                _ = try PgCounter.where(\.name == "held").using(holder).lockForUpdate().all()
                locked.signal()
                release.wait()
            }
            done.signal()
        }.start()
        locked.wait()
        defer {
            release.signal()
            done.wait()
        }
        return try body()
    }

    func seeded() throws -> PostgresAdapter {
        let store = try PostgresTestServer.store()
        for name in ["held", "free"] { try PgCounter.create(["name": .string(name)], in: store) }
        return store
    }

    @Test func noWaitFailsAtOnceOnARowLockedElsewhere() throws {
        let store = try seeded()
        defer { try? store.close() }
        try whileHeld(store) {
            let started = ContinuousClock.now
            let error = #expect(throws: PostgresError.self) {
                try store.transaction { _ = try PgCounter.query().using(store).lockForUpdate(.noWait).all() }
            }
            #expect(error?.kind == .lockNotAvailable && error?.sqlState == "55P03")
            #expect(ContinuousClock.now - started < .seconds(10))  // the lock is held until this returns
        }
    }

    @Test func skipLockedLeavesOutTheRowsLockedElsewhere() throws {
        let store = try seeded()
        defer { try? store.close() }
        let names = try whileHeld(store) {
            try store.transaction { try PgCounter.query().using(store).lockForUpdate(.skipLocked).all().map(\.name) }
        }
        #expect(names == ["free"])
    }

    /// Two threads incrementing one counter 40 times each, every increment a transaction
    /// that reads the row with `lockForUpdate()` first: no update is lost under READ
    /// COMMITTED.
    @Test func readModifyWriteUnderTheLockLosesNoUpdate() throws {
        let store = try seeded()
        defer { try? store.close() }
        let failures = Locked<[String]>([])
        let group = DispatchGroup()
        for _ in 0..<2 {
            group.enter()
            Thread {
                defer { group.leave() }
                do {
                    for _ in 0..<40 {
                        try store.transaction {
                            guard let counter = try PgCounter.where(\.name == "free").using(store).lockForUpdate().first() else { return }
                            counter.value += 1
                            try counter.save()
                        }
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }.start()
        }
        group.wait()
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(try PgCounter.where(\.name == "free").using(store).first()?.value == 80)
    }
}
