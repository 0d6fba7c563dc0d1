import Foundation

/// The cancellation of the task an async call's blocking job runs for, visible to the
/// adapter code the job calls: a network adapter registers a handler that cancels its
/// request, so cancelling the task stops a request in flight instead of waiting for it.
///
/// `@unchecked Sendable`: `cancelled`, `handlers` and `next` are only touched while
/// holding `lock`.
package final class BlockingCancellation: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false
    private var handlers: [Int: @Sendable () -> Void] = [:]
    private var next = 0
    private static let local = ThreadLocal<BlockingCancellation>()

    package init() {}

    /// The cancellation of the job running on this thread; nil outside the blocking pool.
    package static var current: BlockingCancellation? { local.value }

    /// Whether the task was cancelled.
    package var isCancelled: Bool { lock.withLock { cancelled } }

    /// Marks the task cancelled and runs the registered handlers (once).
    package func cancel() {
        let toRun: [@Sendable () -> Void] = lock.withLock {
            if cancelled { return [] }
            cancelled = true
            defer { handlers.removeAll() }
            return Array(handlers.values)
        }
        for handler in toRun { handler() }
    }

    /// Registers `handler` to run on cancellation; returns a token for ``remove(_:)``, or
    /// nil after running `handler` at once when already cancelled.
    package func onCancel(_ handler: @escaping @Sendable () -> Void) -> Int? {
        let token: Int? = lock.withLock {
            if cancelled { return nil }
            next += 1
            handlers[next] = handler
            return next
        }
        if token == nil { handler() }
        return token
    }

    /// Unregisters a handler.
    package func remove(_ token: Int) {
        lock.withLock { _ = handlers.removeValue(forKey: token) }
    }

    /// Runs `body` with this as the thread's ``current``.
    package func whileCurrent<R>(_ body: () throws -> R) rethrows -> R {
        let previous = Self.local.value
        Self.local.value = self
        defer { Self.local.value = previous }
        return try body()
    }
}
