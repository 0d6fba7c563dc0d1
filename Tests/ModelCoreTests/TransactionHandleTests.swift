import ArrayAdapter
import Foundation
import Testing

/// `store.transaction { tx in }`: the body receives its transaction; helpers reach it
/// through the bound handle, not the thread.
@Suite("Transaction handles")
struct TransactionHandleTests {
    @Test func theBodyReceivesAnActiveHandleThatEndsWithIt() throws {
        try withStore { (store: ArrayAdapter) throws in
            let handle = try store.transaction { (tx: TransactionHandle) -> TransactionHandle in
                #expect(tx.isActive && tx.isOpen)
                #expect(tx.store === store)
                try Task(name: "inside").save()
                return tx
            }
            #expect(!handle.isOpen && !handle.isActive)
            #expect(try Task.all().map(\.name) == ["inside"])
        }
    }

    /// Every open handle counts in `TransactionHandle.anyOpen`, which lets a save outside
    /// any transaction skip reading the task-local: synchronous, nested and async bodies
    /// all see it, and a write inside each still joins its transaction.
    @Test func anOpenHandleIsAlwaysCounted() async throws {
        let store = ArrayAdapter()
        let lost = Task(name: "lost")
        #expect(throws: Boom.self) {
            try store.transaction {
                #expect(TransactionHandle.anyOpen)
                try store.transaction { #expect(TransactionHandle.anyOpen) }
                try lost.save(to: store)
                throw Boom()
            }
        }
        #expect(lost.isNew, "the rollback restored the record the body saved")
        // Only the transaction's body touches it until the transaction has ended.
        nonisolated(unsafe) let asyncLost = Task(name: "async")
        do {
            try await store.transaction { _ in
                #expect(TransactionHandle.anyOpen)
                try await asyncLost.save(to: store)
                throw Boom()
            }
            Issue.record("the transaction did not throw")
        } catch is Boom {}
        #expect(asyncLost.isNew)
        #expect(try await Task.count(in: store) == 0)
    }

    @Test func aSavepointThroughTheHandleUndoesOnlyItsLevel() throws {
        try withStore { (store: ArrayAdapter) throws in
            let lost = Task(name: "lost")
            try store.transaction { (tx: TransactionHandle) in
                try Task(name: "kept").save()
                #expect(throws: Boom.self) {
                    try tx.savepoint {
                        try lost.save()
                        throw Boom()
                    }
                }
                #expect(lost.isNew)  // its record state is back
            }
            #expect(try Task.all().map(\.name) == ["kept"])
        }
    }

    @Test func aSavepointOnAnEndedTransactionIsATypedError() throws {
        try withStore { (store: ArrayAdapter) throws in
            let ended = try store.transaction { (tx: TransactionHandle) in tx }
            let error = #expect(throws: StoreError.self) { try ended.savepoint {} }
            #expect(error?.kind == .invalidRequest)
        }
    }

    /// A task started inside a transaction inherits its handle; once the transaction has
    /// ended, the task's writes run outside it (they never join a transaction that is gone).
    @Test func aTaskOutlivingTheTransactionRunsOutsideIt() async throws {
        let store = ArrayAdapter()
        let started = try Self.startTaskInside(store)
        try await started.value
        #expect(try await Task.count(in: store) == 2)
    }

    private static func startTaskInside(_ store: ArrayAdapter) throws -> _Concurrency.Task<Void, any Error> {
        try store.transaction {
            try Task(name: "inside").save(to: store)
            return _Concurrency.Task {
                try await _Concurrency.Task.sleep(for: .milliseconds(20))
                try await Task(name: "later").save(to: store)
            }
        }
    }
}
