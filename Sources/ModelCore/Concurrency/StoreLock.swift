import Foundation
import Synchronization

/// A store's write lock, held by calls for their duration and by transactions through
/// their ``TransactionHandle``.
///
/// - A **call** (``withLock(_:)``) holds a recursive mutex while it runs. While a
///   transaction owns the store, only calls made inside it (its handle is active for the
///   caller: ``TransactionHandle/isActive``) get in, one at a time; others wait for it to end.
/// - A **synchronous transaction** (``transaction(begin:end:nested:_:)``) owns the store
///   and holds the mutex from start to end on its thread, as a plain lock would: its body's
///   calls re-enter it at the cost of a lock. It needs no handle: holding the mutex, its
///   thread is the only one that can be inside it.
/// - An **async transaction** (``acquire(_:)`` … ``release(_:)``) owns the store without
///   holding the mutex, so its body may move between threads and calls from any isolation
///   inside it get in; while it waits for the store it is suspended, not blocking a thread.
///
/// - An **async call** outside every transaction (a store call of the async API, on its way
///   to a ``BlockingPool`` thread) is admitted first (``enterCall()``): it suspends while an
///   async transaction owns the store or waits to, so it never reaches the pool only to
///   park a shared thread on ``lock()``. An async transaction in turn waits, suspended,
///   for the calls admitted before it to finish (``acquire(_:)``).
///
/// `@unchecked Sendable`: `owner` and `ownerHoldsMutex` are written holding both `mutex` and
/// `gate`, read holding either; `generation`, `waiters`, `admittedCalls`,
/// `pendingTransactions` and `callWaiters` are only touched holding `gate`; `ownerBits`
/// and `ownerThread` are atomic.
package final class StoreLock: @unchecked Sendable {
    private let mutex = RecursiveLock()
    private let gate = NSCondition()
    private var owner: TransactionHandle?
    /// Whether the owner is a synchronous transaction, holding `mutex` on its thread.
    private var ownerHoldsMutex = false
    /// The owner's address (0 when none; ``syncOwner`` for a synchronous transaction), for
    /// lock-free checks.
    private let ownerBits = Atomic<UInt>(0)
    /// The thread of a synchronous owner (0 otherwise).
    private let ownerThread = Atomic<UInt>(0)
    private static let syncOwner: UInt = 1
    /// Bumped whenever the owner leaves.
    private var generation: UInt64 = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []
    /// Async calls admitted (``enterCall()``) and not yet finished.
    private var admittedCalls = 0
    /// Async transactions in ``acquire(_:)`` that do not own the store yet.
    private var pendingTransactions = 0
    /// Async calls suspended until no async transaction owns the store or waits for it,
    /// by the number ``enterCall()`` gave them (a cancelled one leaves by it).
    private var callWaiters: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
    private var lastCallWaiter: UInt64 = 0

    package init() {}

    // MARK: Async calls

    /// Admits an async call outside every transaction before it goes to a pool thread:
    /// suspends (never blocks) while an async transaction owns the store or is waiting to,
    /// so the thread that runs the call will not wait for one. Pair with ``leaveCall()``
    /// once it returns.
    ///
    /// - Throws: `CancellationError` when the task is cancelled while it waits (it is then
    ///   not admitted: do not call ``leaveCall()``).
    nonisolated(nonsending) package func enterCall() async throws {
        if admitNow() { return }
        let id = gate.withLock { () -> UInt64 in
            lastCallWaiter &+= 1
            return lastCallWaiter
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                gate.lock()
                if owner == nil || ownerHoldsMutex, pendingTransactions == 0 {
                    admittedCalls += 1
                    gate.unlock()
                    continuation.resume()
                    return
                }
                callWaiters.append((id, continuation))  // admitted (counted) by whoever resumes it
                gate.unlock()
                if Task.isCancelled { cancelCall(id) }
            }
        } onCancel: {
            cancelCall(id)
        }
    }

    /// Takes waiting call `id` off the queue, failing it with `CancellationError`, unless
    /// it was admitted meanwhile.
    private func cancelCall(_ id: UInt64) {
        gate.lock()
        guard let index = callWaiters.firstIndex(where: { $0.id == id }) else {
            gate.unlock()
            return
        }
        let continuation = callWaiters.remove(at: index).continuation
        gate.unlock()
        continuation.resume(throwing: CancellationError())
    }

    /// Admits a call at once when nothing async owns or waits for the store.
    private func admitNow() -> Bool {
        gate.withLock {
            guard owner == nil || ownerHoldsMutex, pendingTransactions == 0 else { return false }
            admittedCalls += 1
            return true
        }
    }

    /// Ends an admitted call; the last one out lets a waiting async transaction in.
    package func leaveCall() {
        gate.lock()
        admittedCalls -= 1
        var woken: [CheckedContinuation<Void, Never>] = []
        if admittedCalls == 0, pendingTransactions > 0 { swap(&woken, &waiters) }
        gate.unlock()
        for waiter in woken { waiter.resume() }
    }

    /// Admits every waiting call when no async transaction owns the store or waits for it.
    /// Call holding `gate`; resume what it returns after unlocking.
    private func admitWaitingCalls() -> [CheckedContinuation<Void, any Error>] {
        guard owner == nil || ownerHoldsMutex, pendingTransactions == 0, !callWaiters.isEmpty else { return [] }
        let woken = callWaiters.map(\.continuation)
        callWaiters = []
        admittedCalls += woken.count
        return woken
    }

    // MARK: Calls

    /// Takes the mutex for a call, waiting while a transaction the caller is not inside
    /// owns the store.
    @inline(__always) package func lock() {
        mutex.lock()
        if ownerBits.load(ordering: .acquiring) == 0 || ownerHoldsMutex { return }  // free, or our own thread's transaction
        waitForOwner()
    }

    @inline(__always) package func unlock() { mutex.unlock() }

    /// Runs `body` holding the lock (see ``lock()``).
    @inline(__always) package func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        lock()
        defer { mutex.unlock() }
        return try body()
    }

    /// Runs `body` holding the lock if that needs no waiting; nil otherwise.
    package func withLockIfAvailable<R>(_ body: () throws -> sending R) rethrows -> sending R? {
        guard mutex.tryLock() else { return nil }
        defer { mutex.unlock() }
        guard ownerBits.load(ordering: .acquiring) == 0 || ownerHoldsMutex || owner?.isActive == true else { return nil }
        return try body()
    }

    /// Called holding `mutex` while an async transaction owns the store: returns holding
    /// it once the caller may go on.
    private func waitForOwner() {
        while true {
            guard let current = owner, !ownerHoldsMutex else { return }
            if current.isActive { return }
            gate.lock()
            let seen = generation
            gate.unlock()
            mutex.unlock()
            gate.lock()
            while generation == seen { gate.wait() }
            gate.unlock()
            mutex.lock()
        }
    }

    // MARK: Transactions

    /// How many async transactions are suspended waiting for the store now.
    package var suspendedTransactions: Int {
        gate.lock()
        defer { gate.unlock() }
        return waiters.count
    }

    /// Whether a transaction the caller is inside owns the store.
    /// Never waits (a reader may ask while a transaction on another thread holds the lock).
    @inline(__always) package var isOwnedHere: Bool {
        let bits = ownerBits.load(ordering: .acquiring)
        if bits == 0 { return false }
        // A synchronous owner holds the mutex on its thread: only that thread is inside.
        if bits == Self.syncOwner { return ownerThread.load(ordering: .acquiring) == currentThreadID() }
        return TransactionHandle.isActive(identifiedBy: bits)
    }

    /// Runs `body` as a synchronous transaction, holding the mutex throughout: `begin`
    /// opens it, `end(true)` commits, `end(false)` rolls back.
    private func withTransaction<R>(begin: () throws -> Void, end: (_ commit: Bool) throws -> Void, _ body: () throws -> R) throws -> R {
        lock()
        defer { mutex.unlock() }
        setOwner(nil, holdsMutex: true)
        defer { setOwner(nil, holdsMutex: false) }
        try begin()
        let result: R
        do {
            result = try body()
        } catch {
            try? end(false)
            throw error
        }
        try end(true)
        return result
    }

    /// A store's `withTransaction` over this lock: a nested level (`nested`, holding the
    /// mutex) inside a transaction the caller is in, else an outermost level, holding the
    /// mutex to its end.
    package func transaction<R>(
        begin: () throws -> Void, end: (_ commit: Bool) throws -> Void,
        nested: (() throws -> R) throws -> R, _ body: () throws -> R
    ) throws -> R {
        if isOwnedHere { return try withLock { try withoutActuallyEscaping(body) { try nested($0) } } }
        return try withTransaction(begin: begin, end: end, body)
    }

    /// A store's `beginTransaction(for:)` over this lock: waits (suspended) to own the
    /// store, then runs `open` holding the mutex; lets go again when `open` throws.
    nonisolated(nonsending) package func begin(_ handle: TransactionHandle, _ open: () throws -> Void) async throws {
        await acquire(handle)
        do {
            try withLock(open)
        } catch {
            release(handle)
            throw error
        }
    }

    /// Makes `handle` (an async transaction) the owner, suspending while another transaction
    /// owns the store. Does not keep the mutex.
    nonisolated(nonsending) package func acquire(_ handle: TransactionHandle) async {
        gate.withLock { pendingTransactions += 1 }
        while true {
            // Calls hold the mutex only briefly; a synchronous transaction holds it to its
            // end, and is waited for suspended, on the gate, as are admitted async calls.
            if let taken = mutex.withLockIfAvailable({ () -> Bool in
                guard ownerBits.load(ordering: .acquiring) == 0, gate.withLock({ admittedCalls == 0 }) else { return false }
                setOwner(handle, holdsMutex: false)
                return true
            }) {
                if taken { return }
            } else if ownerBits.load(ordering: .acquiring) == 0, gate.withLock({ admittedCalls == 0 }) {
                mutex.withLock {}  // a call in progress: wait the moment it takes
                continue
            }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                gate.lock()
                if ownerBits.load(ordering: .acquiring) == 0, admittedCalls == 0 {
                    gate.unlock()
                    continuation.resume()
                } else {
                    waiters.append(continuation)
                    gate.unlock()
                }
            }
        }
    }

    /// Ends `handle`'s ownership (after its commit or rollback).
    package func release(_ handle: TransactionHandle) {
        mutex.withLock { if owner === handle { setOwner(nil, holdsMutex: false) } }
    }

    /// Sets the owner (an async transaction's handle, or the calling thread's synchronous
    /// transaction when `holdsMutex`), holding `mutex`; wakes every waiter when it leaves.
    private func setOwner(_ handle: TransactionHandle?, holdsMutex: Bool) {
        gate.lock()
        owner = handle
        ownerHoldsMutex = holdsMutex
        ownerThread.store(holdsMutex ? currentThreadID() : 0, ordering: .releasing)
        ownerBits.store(holdsMutex ? Self.syncOwner : handle?.bits ?? 0, ordering: .releasing)
        if handle != nil { pendingTransactions -= 1 }  // an async transaction now owns it
        var woken: [CheckedContinuation<Void, Never>] = []
        var admitted: [CheckedContinuation<Void, any Error>] = []
        if handle == nil && !holdsMutex {
            generation &+= 1
            gate.broadcast()
            swap(&woken, &waiters)
            admitted = admitWaitingCalls()
        }
        gate.unlock()
        for waiter in woken { waiter.resume() }
        for call in admitted { call.resume() }
    }
}
