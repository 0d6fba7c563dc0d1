import Foundation

/// The isolation of an async transaction's body: an actor whose executor is the
/// transaction's own thread (see ``PersistenceAdapter/transaction(_:)-(sending(isolated AsyncTransaction)async throws -> sending R)``).
///
/// Everything the body does between suspension points runs on that thread, inside the
/// store transaction: synchronous calls (`try todo.save()`, `try store.transaction { }`
/// for a savepoint) and async ones (`try await Todo.find(id)`, which run inline there)
/// alike. Records the body loads or creates belong to this isolation; the body can return
/// them (its result is `sending`).
public final actor AsyncTransaction {
    /// The store the transaction runs on.
    public nonisolated let store: any PersistenceAdapter
    nonisolated let thread = TransactionThread()

    init(store: any PersistenceAdapter) { self.store = store }

    /// The transaction's thread.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { thread.asUnownedSerialExecutor() }

    func run<R>(_ body: sending (isolated AsyncTransaction) async throws -> sending R) async throws -> sending R {
        try await body(self)
    }
}

extension PersistenceAdapter {
    /// Runs `body` atomically on this store (async): every write inside commits together
    /// or not at all, as with ``transaction(_:)-(()throws->R)``.
    ///
    /// The body runs on a thread the transaction owns (its isolation is the
    /// ``AsyncTransaction`` it receives), so the caller's thread — the main actor, a
    /// cooperative thread — never holds or waits for the store. Inside, use the API as
    /// anywhere: async calls run inline on that thread. Change notifications are
    /// delivered after the commit; none when it rolls back, and records saved inside get
    /// their previous state back.
    ///
    /// ```swift
    /// let moved = try await store.transaction { _ in
    ///     guard let from = try await Account.find(fromID), let to = try await Account.find(toID) else { return false }
    ///     from.balance -= amount
    ///     to.balance += amount
    ///     try await from.save()
    ///     try await to.save()            // if this throws, neither is saved
    ///     return true
    /// }
    /// ```
    ///
    /// Records the caller holds cannot go into the body (the compiler checks it): pass
    /// ids or values in and load them inside; the body's result comes out.
    ///
    /// Cancellation: a task cancelled before the transaction begins throws
    /// `CancellationError` and touches nothing; once begun, the body's async calls throw
    /// `CancellationError` when the task is cancelled, which rolls the whole transaction
    /// back.
    ///
    /// - Throws: what `body` throws (after rolling back), the store's errors, and
    ///   ``StoreError`` `.invalidRequest` for an async transaction nested in another on
    ///   the same store (nest with the synchronous `transaction { }` there: a savepoint).
    @discardableResult
    nonisolated(nonsending) public func transaction<R>(
        _ body: sending (isolated AsyncTransaction) async throws -> sending R
    ) async throws -> sending R {
        try Task.checkCancellation()
        if TransactionContext.isOpen(on: self) {
            throw StoreError(
                .invalidRequest, table: "",
                message: "an async transaction cannot nest inside another on the same store; use the synchronous transaction { } (a savepoint) inside it")
        }
        let scope = AsyncTransaction(store: self)
        let (started, finished) = (OneShot(), OneShot())
        let failure = FailureSlot()
        let thread = Thread { [self] in
            do {
                try TransactionContext.run(on: self) {
                    started.fulfill(.success(()))
                    scope.thread.runJobs()
                    if let error = failure.error { throw error }
                }
                finished.fulfill(.success(()))
            } catch {
                started.fulfill(.failure(error))  // no effect once started
                finished.fulfill(.failure(error))
            }
        }
        thread.name = "SwiftModel.transaction"
        thread.start()
        do {
            try await started.wait()
            try Task.checkCancellation()
        } catch {
            failure.error = error
            scope.thread.stop()
            try? await finished.wait()
            throw error
        }
        let result: R
        do {
            result = try await scope.run(body)
        } catch {
            failure.error = error
            scope.thread.stop()
            try? await finished.wait()
            throw error
        }
        scope.thread.stop()
        try await finished.wait()
        return result
    }
}

/// Why the body failed, handed from the caller to the transaction's thread.
///
/// `@unchecked Sendable`: `error` is only read and written while holding `lock`.
private final class FailureSlot: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (any Error)?

    var error: (any Error)? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
