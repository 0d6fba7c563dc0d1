import Foundation
import ModelCore
import PostgresAdapter
import Synchronization
import TestSupport
import Testing

/// Preparing a table for its first use inside a transaction: other callers never wait for
/// the transaction, not even synchronous callers that occupy every thread of Swift's
/// cooperative pool.
/// A counter the callers' tasks share.
private final class Counter: Sendable {
    let value = Atomic<Int>(0)
}

@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipReason), .runsOffThePool)
struct PostgresTablePreparationTests {
    /// A synchronous read, as a caller on a cooperative thread makes it (it blocks that thread).
    static func blockingCount(_ store: PostgresAdapter) -> Result<Int, any Error> {
        Result { try PgAccount.count(in: store) }
    }

    @Test func anAsyncTransactionsFirstUseOfATableNeverStrandsSynchronousCallers() async throws {
        // More blocking callers than the cooperative pool has threads. The statement timeout
        // stands in for a hang: a caller stuck behind the transaction's lock fails after it.
        let callers = ProcessInfo.processInfo.activeProcessorCount + 2
        let store = try PostgresTestServer.store {
            $0.maximumConnections = callers + 2
            $0.statementTimeout = .seconds(8)
        }
        defer { try? store.close() }
        let started = Counter()
        let results = try await store.transaction { _ -> [Task<Result<Int, any Error>, Never>] in
            _ = try await PgAccount.create(["owner": "first", "balance": 1], in: store)  // the table's first use
            let tasks = (0..<callers).map { _ in
                Task.detached {
                    started.value.add(1, ordering: .relaxed)
                    return Self.blockingCount(store)
                }
            }
            while started.value.load(ordering: .relaxed) < callers { try await Task.sleep(for: .milliseconds(10)) }
            try await Task.sleep(for: .milliseconds(300))  // let them reach the store
            return tasks
        }
        for task in results {
            switch await task.value {
            case .success(let count): #expect(count <= 1)
            case .failure(let error): Issue.record("a synchronous caller waited on the transaction: \(error)")
            }
        }
        #expect(try await PgAccount.count(in: store) == 1)
    }

    @Test func preparingATableNeverWaitsForTheSameNameInAnotherSchema() throws {
        // One connection: the transaction must prepare the table inside itself, holding the
        // preparation lock until it ends.
        let holder = try PostgresTestServer.store { $0.maximumConnections = 1 }
        defer { try? holder.close() }
        let (holding, release, done) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        Thread {
            try? holder.transaction {
                _ = try PgAccount.create(["owner": "held", "balance": 1], in: holder)
                holding.signal()
                release.wait()
            }
            done.signal()
        }.start()
        defer {
            release.signal()
            done.wait()
        }
        holding.wait()
        // The same table name in another schema: prepared at once, not after a timeout.
        let other = try PostgresTestServer.store { $0.statementTimeout = .seconds(3) }
        defer { try? other.close() }
        #expect(try PgAccount.count(in: other) == 0)
    }

    @Test func aTablePreparedForATransactionOutlivesItsRollback() throws {
        let store = try PostgresTestServer.store()
        defer { try? store.close() }
        struct Abandon: Error {}
        #expect(throws: Abandon.self) {
            try store.withTransaction {
                _ = try PgAccount.create(["owner": "gone", "balance": 1], in: store)
                throw Abandon()
            }
        }
        // The table stays (it was committed beside the transaction); the row does not.
        #expect(try store.rows("SELECT to_regclass($1) IS NOT NULL", [.string(PgAccount.schema.tableName)])[0][0] == .bool(true))
        #expect(try PgAccount.count(in: store) == 0)
    }

    /// A table first used inside a savepoint that rolls back is usable afterwards: in the
    /// same transaction and after its commit (never "relation does not exist").
    @Test func aTableFirstUsedInARolledBackSavepointIsUsableAfterwards() throws {
        let store = try PostgresTestServer.store()
        defer { try? store.close() }
        struct Abort: Error {}
        try store.withTransaction {
            #expect(throws: Abort.self) {
                try store.withTransaction {
                    _ = try PgAccount.create(["owner": "rolled back", "balance": 1], in: store)
                    throw Abort()
                }
            }
            _ = try PgAccount.create(["owner": "after the savepoint", "balance": 2], in: store)
        }
        #expect(try PgAccount.query(in: store).pluck(\.owner) == ["after the savepoint"])
        let other = try PostgresTestServer.store()
        defer { try? other.close() }
        _ = try other.withTransaction {
            #expect(throws: Abort.self) {
                try other.withTransaction {
                    _ = try PgNumbers.create(["ratio": 1.5, "count": 1], in: other)
                    throw Abort()
                }
            }
        }
        #expect(try PgNumbers.count(in: other) == 0)
        _ = try PgNumbers.create(["ratio": 2.5, "count": 2], in: other)
        #expect(try PgNumbers.count(in: other) == 1)
    }

    @Test func aChildTableWhoseParentTheTransactionWroteIsPreparedInsideIt() throws {
        // Creating the child's foreign key locks the parent, which the transaction has
        // written: prepared beside it, the DDL would wait for the transaction forever.
        let store = try PostgresTestServer.store {
            $0.statementTimeout = .seconds(8)
        }
        defer { try? store.close() }
        try store.withTransaction {
            let shelf = try PgShelf.create(["label": "A"], in: store)
            _ = try PgBook.create(["title": "T", "shelf_id": .int(shelf.id ?? 0)], in: store)
        }
        #expect(try PgBook.count(in: store) == 1)
        #expect(try PgShelf.all(in: store).first?.books.count() == 1)
    }
}
