import Foundation

/// The isolation of an async transaction's body: an actor whose executor is the
/// transaction's own thread (see the async `PersistenceAdapter.transaction(_:)`).
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

    /// The async transaction the current task runs in (its body and the tasks it starts).
    @TaskLocal package static var current: AsyncTransaction?

    /// The open async transaction on `store` of the current task, when the calling thread
    /// is not its own (an async call from another isolation inside the body).
    package static func elsewhere(on store: any PersistenceAdapter) -> AsyncTransaction? {
        guard let scope = current, scope.store === store, !TransactionContext.isOpen(on: store) else { return nil }
        return scope
    }

    /// Refuses a write of caller-held records from outside the body's isolation: their
    /// state and notifications belong to the transaction's thread.
    package static func checkRecordWrite(on store: any PersistenceAdapter, model: String) throws {
        guard elsewhere(on: store) != nil else { return }
        throw StoreError(
            .invalidRequest, table: model,
            message: "inside an async transaction, write records from the body's own isolation (a nonisolated async function called from the body runs elsewhere: mark it nonisolated(nonsending) or pass it the transaction)")
    }

    /// The transaction's thread.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { thread.asUnownedSerialExecutor() }

    func run<R>(_ body: @Sendable (isolated AsyncTransaction) async throws -> sending R) async throws -> sending R {
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
        _ body: @Sendable (isolated AsyncTransaction) async throws -> sending R
    ) async throws -> sending R {
        try Task.checkCancellation()
        if TransactionContext.isOpen(on: self) || AsyncTransaction.current?.store === self {
            throw StoreError(
                .invalidRequest, table: "",
                message: "an async transaction cannot nest inside another on the same store; use the synchronous transaction { } (a savepoint) inside it")
        }
        let scope = AsyncTransaction(store: self)
        let (started, finished) = (OneShot(), OneShot())
        let failure = FailureSlot()
        let thread = Thread { [self] in
            Thread.current.name = "SwiftModel.tx"
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
        thread.name = "SwiftModel.tx"
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
            let sent = try await AsyncTransaction.$current.withValue(scope) { Disconnected(value: try await scope.run(body)) }
            result = sent.value
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

/// A value returned as `sending` (disconnected from every isolation), carried through
/// `TaskLocal.withValue`, whose result is not declared `sending`.
///
/// `@unchecked Sendable`: it only ever holds a `sending` result on its way to the one
/// caller it was made for.
private struct Disconnected<T>: @unchecked Sendable {
    var value: T
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
