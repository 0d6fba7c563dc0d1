import Foundation

/// An observation's registration with ``TableObservers``: a flag that commits set, and
/// the one task that may wait for it. Ends the registration when the iterator is gone.
final class ChangeWatch: Sendable {
    private let signal = ChangeSignal()
    private let token: UInt64

    init<M: ModelProtocol>(query: Query<M>) {
        let signal = self.signal
        if let store = query.adapter {
            token = TableObservers.add(store: store, tables: query.readTables) { signal.raise() }
        } else {
            token = 0
        }
    }

    deinit { TableObservers.remove(token) }

    /// Waits until a relevant commit happened since the last wait; false when the task
    /// is cancelled.
    func wait() async -> Bool { await signal.wait() }
}

/// A coalescing flag: any number of raises between two waits wake one wait.
///
/// `@unchecked Sendable`: `raised`, `waiter` and `cancelled` are only touched while
/// holding `lock`.
final class ChangeSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false
    private var cancelled = false
    private var waiter: CheckedContinuation<Bool, Never>?

    func raise() {
        lock.lock()
        if let waiter {
            self.waiter = nil
            lock.unlock()
            waiter.resume(returning: true)
        } else {
            raised = true
            lock.unlock()
        }
    }

    func wait() async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                lock.lock()
                if cancelled || Task.isCancelled {
                    lock.unlock()
                    continuation.resume(returning: false)
                } else if raised {
                    raised = false
                    lock.unlock()
                    continuation.resume(returning: true)
                } else {
                    waiter = continuation
                    lock.unlock()
                }
            }
        } onCancel: {
            lock.lock()
            cancelled = true
            let waiter = self.waiter
            self.waiter = nil
            lock.unlock()
            waiter?.resume(returning: false)
        }
    }
}
