import Foundation

/// Wakes delayed requests when the server stops, so stopping never waits out a delay.
///
/// `@unchecked Sendable`: `stopped` is only touched while holding `condition`.
final class StopSignal: @unchecked Sendable {
    private let condition = NSCondition()
    private var stopped = false

    func signal() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits `duration` or until the server stops; true when it stopped.
    func wait(_ duration: Duration) -> Bool {
        let (seconds, attoseconds) = duration.components
        let deadline = Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) / 1e18)
        condition.lock()
        defer { condition.unlock() }
        while !stopped, condition.wait(until: deadline) {}
        return stopped
    }
}
