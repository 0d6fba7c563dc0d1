import Foundation

/// An async transaction: the isolation its body runs in, and its ``TransactionHandle``.
///
/// The body's synchronous parts — between its suspension points — run on the
/// transaction's serial executor, a dispatch queue of its own (never the cooperative pool
/// or the main actor, so synchronous store calls there may block). No thread is created
/// for it. The handle is bound to the body's task: a call from another isolation inside
/// the body (an `await` into a `@MainActor` function, a child task) joins the transaction,
/// its store work running on this executor.
///
/// Adapters whose transactions belong to threads (third-party ones that only implement
/// ``PersistenceAdapter/withTransaction(_:)``) still get a thread per transaction, which
/// holds their transaction open while the body runs.
public final actor AsyncTransaction {
    /// The store the transaction runs on.
    public nonisolated let store: any PersistenceAdapter
    /// The transaction's handle (see ``TransactionHandle``).
    public nonisolated let handle: TransactionHandle
    private nonisolated let executor: TransactionExecutor

    init(store: any PersistenceAdapter, outer: TransactionHandle?, executor: TransactionExecutor) {
        self.store = store
        self.executor = executor
        handle = TransactionHandle(store: store, outer: outer)
        handle.attach(self)
    }

    /// The transaction's executor.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        switch executor {
        case .queue(let queue): queue.asUnownedSerialExecutor()
        case .thread(let thread): thread.asUnownedSerialExecutor()
        }
    }

    /// Whether the calling code runs on the transaction's executor.
    package nonisolated var isRunningHere: Bool {
        switch executor {
        case .queue(let queue): queue.isCurrent
        case .thread(let thread): thread.isCurrent
        }
    }

    /// Runs store work of the transaction's task here, inside the transaction.
    package func perform<T>(_ body: @Sendable () throws -> sending T) throws -> sending T { try body() }

    func run<R>(_ body: @Sendable (isolated AsyncTransaction) async throws -> sending R) async throws -> sending R {
        try await body(self)
    }

    /// Begins, runs the body and commits (or rolls back), all on the transaction's
    /// executor: one switch there and one back. Nil when the store's transactions belong
    /// to threads (nothing was begun).
    fileprivate func execute<R>(_ body: @Sendable (isolated AsyncTransaction) async throws -> sending R) async throws
        -> Disconnected<R>?
    {
        guard let opened = try await store.beginTransaction(for: handle) else { return nil }
        handle.pushLevel()
        let sent: Disconnected<R>
        do {
            try Task.checkCancellation()
            sent = Disconnected(value: try await body(self))
        } catch {
            await rollBack(opened)
            throw error
        }
        // A failed commit has undone everything itself (its level is gone): not a rollback.
        try await commit(opened)
        return sent
    }

    /// Commits: the store first, then the changes are announced. A failed commit rolls
    /// back like a throwing body.
    fileprivate func commit(_ opened: any StoreTransaction) async throws {
        let level = handle.popLevel()
        do {
            try await opened.commit()
        } catch {
            handle.close()
            await level.restoreEverywhere(writtenIn: handle.store)
            throw error
        }
        handle.close()
        // The level's undo goes with it (see `TransactionContext.level(of:_:)`).
        level.publish(to: handle.key)
    }

    fileprivate func rollBack(_ opened: any StoreTransaction) async {
        let level = handle.popLevel()
        await opened.rollback()
        handle.close()
        await level.restoreEverywhere(writtenIn: handle.store)
    }
}

extension PersistenceAdapter {
    /// Runs `body` atomically on this store (async): every write inside commits together
    /// or not at all, as with ``transaction(_:)-(()throws->R)``.
    ///
    /// The body runs isolated to the ``AsyncTransaction`` it receives, on an executor of
    /// the transaction's own (not the cooperative pool nor the main actor: synchronous
    /// store calls there may block), and waiting for the store suspends the caller rather
    /// than blocking a thread. Inside, use the API as anywhere. Calls from another
    /// isolation inside the body — an `await` into a `@MainActor` function, a child task —
    /// join the transaction. Change notifications are delivered after the commit; none when
    /// it rolls back, and records saved inside get their previous state back, each in the
    /// isolation that saved it (for records written with the async API, or on the main
    /// actor).
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
    /// ids or values in and load them inside, or write them from the caller's isolation
    /// inside the body (`await` a function of that isolation); the body's result comes out.
    ///
    /// Cancellation: a task cancelled before the transaction begins throws
    /// `CancellationError` and touches nothing; one cancelled while it waits for the store
    /// throws it once the store is its, before the body runs (rolling back the empty
    /// transaction); once the body runs, its async calls throw `CancellationError` when the
    /// task is cancelled, which rolls the whole transaction back.
    ///
    /// - Throws: what `body` throws (after rolling back), the store's errors, and
    ///   ``StoreError`` `.invalidRequest` for an async transaction nested in another on
    ///   the same store (nest with the synchronous `transaction { }` there: a savepoint).
    @discardableResult
    nonisolated(nonsending) public func transaction<R>(
        _ body: @Sendable (isolated AsyncTransaction) async throws -> sending R
    ) async throws -> sending R {
        try Task.checkCancellation()
        if TransactionContext.isOpen(on: self) {
            throw StoreError(
                .invalidRequest, table: "",
                message: "an async transaction cannot nest inside another on the same store; use the synchronous transaction { } (a savepoint) inside it")
        }
        let executor = QueueExecutor.take()
        defer { executor.recycle() }
        let scope = AsyncTransaction(store: self, outer: TransactionHandle.innermost, executor: .queue(executor))
        let handle = scope.handle
        // The handle is bound from the start: the store's begin, commit and rollback are
        // calls inside the transaction.
        let outcome = try await TransactionHandle.$innermost.withValue(handle) { try await scope.execute(body) }
        if let outcome { return outcome.value }
        handle.close()
        return try await onThread(body)
    }

    /// An async transaction on an adapter whose transactions belong to threads: a thread
    /// holds ``withTransaction(_:)`` open and runs the body's jobs.
    nonisolated(nonsending) private func onThread<R>(
        _ body: @Sendable (isolated AsyncTransaction) async throws -> sending R
    ) async throws -> sending R {
        let thread = TransactionThread()
        let scope = AsyncTransaction(store: self, outer: TransactionHandle.innermost, executor: .thread(thread))
        let handle = scope.handle
        // Owns the store for async calls from outside (suspended until admitted calls are
        // done; they wait for the end, suspended), since the adapter's own lock would make
        // them park pool threads.
        let admission = (self as? any AdmittingAdapter)?.admission(reads: false) ?? ThreadTransactions.lock(for: self)
        await admission.acquire(handle)
        defer { admission.release(handle) }
        let (started, finished) = (OneShot(), OneShot())
        let failure = FailureSlot()
        let worker = Thread { [self] in
            Thread.current.name = "SwiftModel.tx"
            do {
                try TransactionContext.runOutermost(handle, on: self) {
                    started.fulfill(.success(()))
                    thread.runJobs()
                    if let error = failure.error { throw error }
                }
                finished.fulfill(.success(()))
            } catch {
                started.fulfill(.failure(error))  // no effect once started
                finished.fulfill(.failure(error))
            }
        }
        worker.name = "SwiftModel.tx"
        worker.start()
        do {
            try await started.wait()
            try Task.checkCancellation()
            let sent = try await TransactionHandle.$innermost.withValue(handle) {
                Disconnected(value: try await scope.run(body))
            }
            thread.stop()
            try await finished.wait()
            return sent.value
        } catch {
            failure.error = error
            thread.stop()
            try? await finished.wait()
            throw error
        }
    }
}

/// The two kinds of executor an async transaction runs on.
enum TransactionExecutor: Sendable {
    /// A dispatch queue of its own (adapters with handle-owned transactions).
    case queue(QueueExecutor)
    /// A thread of its own (adapters whose transactions belong to threads).
    case thread(TransactionThread)
}

extension TransactionHandle.Level {
    /// Puts back every record written at a rolled-back level of a transaction on `store`
    /// that still exists, each in the isolation it was written from.
    nonisolated(nonsending) consuming func restoreEverywhere(writtenIn store: any PersistenceAdapter) async {
        for (record, undo) in log.takeForRollback(level: serial) {
            if let isolation = undo.isolation {
                await restoreRecord(UndoBox(record: record, undo: undo, store: store), on: isolation)
            } else {
                undo.restore(record, writtenIn: store)
            }
        }
    }
}

/// Restores a record in its own isolation.
private func restoreRecord(_ box: UndoBox, on isolation: isolated any Actor) {
    box.undo.restore(box.record, writtenIn: box.store)
}

/// A record and its undo on their way to the isolation the record belongs to.
///
/// `@unchecked Sendable`: the record and undo are only used in the isolation the record
/// was written from (``RecordUndo/isolation``), where they are sent to be applied. (The
/// store is `Sendable`.)
private struct UndoBox: @unchecked Sendable {
    let record: ModelObject
    let undo: RecordUndo
    let store: any PersistenceAdapter
}

/// A value returned as `sending` (disconnected from every isolation), carried through
/// `TaskLocal.withValue`, whose result is not declared `sending`.
///
/// `@unchecked Sendable`: it only ever holds a `sending` result on its way to the one
/// caller it was made for.
struct Disconnected<T>: @unchecked Sendable {
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
