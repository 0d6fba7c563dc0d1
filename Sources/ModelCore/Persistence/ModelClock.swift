import Foundation

/// The clock that stamps `created_at` and `updated_at`.
///
/// Replace it for the process, or for a scope (task-local), to make tests deterministic:
///
/// ```swift
/// let fixed = Date(timeIntervalSince1970: 1_700_000_000)
/// try ModelClock.using({ fixed }) { try todo.save() }   // todo.createdAt == fixed
/// ```
public enum ModelClock {
    private static let global = Locked<@Sendable () -> Date>({ Date() })
    @TaskLocal private static var scoped: (@Sendable () -> Date)?

    /// The current time according to the active clock.
    public static func now() -> Date { (scoped ?? global.withLock { $0 })() }

    /// Replaces the process-wide clock (`nil` restores the system clock).
    public static func set(_ clock: (@Sendable () -> Date)?) {
        global.withLock { $0 = clock ?? { Date() } }
    }

    /// Runs `body` with `clock` in effect for the current task.
    @discardableResult
    public static func using<R>(_ clock: @escaping @Sendable () -> Date, _ body: () throws -> R) rethrows -> R {
        try $scoped.withValue(clock, operation: body)
    }
}
