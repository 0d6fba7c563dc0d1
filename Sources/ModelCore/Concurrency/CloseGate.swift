import Foundation

/// Counts the calls in flight on an adapter without a lock of its own to wait on, so
/// that `close()` can wait for them and refuse every later call.
///
/// ```swift
/// func send(through gate: CloseGate, _ work: () throws -> Void) throws {
///     try gate.enter { StoreError.closed("REST store") }
///     defer { gate.leave() }
///     try work()
/// }
/// ```
package final class CloseGate: @unchecked Sendable {
    // @unchecked Sendable: `inFlight` and `closed` are read and written only while holding
    // `condition`'s lock.
    private let condition = NSCondition()
    private var inFlight = 0
    private var closed = false

    package init() {}

    /// Counts one call in, or throws `closedError()` once the gate is closed.
    package func enter(_ closedError: () -> any Error) throws {
        condition.lock()
        defer { condition.unlock() }
        if closed { throw closedError() }
        inFlight += 1
    }

    /// Counts one call out.
    package func leave() {
        condition.lock()
        inFlight -= 1
        if inFlight == 0 { condition.broadcast() }
        condition.unlock()
    }

    /// Refuses new calls, then waits until the calls in flight have left. Returns false
    /// when the gate was already closed.
    @discardableResult
    package func close() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if closed { return false }
        closed = true
        while inFlight > 0 { condition.wait() }
        return true
    }

    /// Whether ``close()`` has run.
    package var isClosed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return closed
    }
}
