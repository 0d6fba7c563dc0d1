import Foundation
import Synchronization

/// The clock that stamps `created_at` and `updated_at`.
///
/// Replace it for the process, or for a scope (task-local), to make tests deterministic:
///
/// ```swift
/// let fixed = Date(timeIntervalSince1970: 1_700_000_000)
/// try ModelClock.using({ fixed }) { try todo.save() }   // todo.createdAt == fixed
/// ```
public enum ModelClock {
    /// The clock in a concrete struct: a function stored directly in the generic
    /// `Locked<Value>` is kept at the generic abstraction level, so every `inout` access
    /// re-wrapped it in two more reabstraction thunks — each `now()` got slower, without
    /// bound, for the life of the process.
    private struct Clock {
        var now: @Sendable () -> Date
    }

    private static let processClock = Locked(Clock(now: { Date() }))
    /// A task's private process-wide clock (``withPrivateSettings(_:)``), read only while
    /// one is bound somewhere.
    @TaskLocal private static var privateClock: Locked<Clock>?
    private static let privateScopes = Atomic<Int>(0)
    private static var global: Locked<Clock> {
        if privateScopes.load(ordering: .relaxed) == 0 { return processClock }
        return privateClock ?? processClock
    }
    @TaskLocal private static var scoped: (@Sendable () -> Date)?

    /// The current time according to the active clock.
    public static func now() -> Date { (scoped ?? global.withLock { $0.now })() }

    /// Replaces the process-wide clock (`nil` restores the system clock).
    public static func set(_ clock: (@Sendable () -> Date)?) {
        global.withLock { $0.now = clock ?? { Date() } }
    }

    /// Runs `body` with a private process-wide clock (the system clock to begin with): what
    /// ``set(_:)`` sets inside it stays inside it and the tasks it starts. For tests, which
    /// run in parallel.
    package static func withPrivateSettings<R>(_ body: () throws -> R) rethrows -> R {
        privateScopes.add(1, ordering: .relaxed)
        defer { privateScopes.subtract(1, ordering: .relaxed) }
        return try $privateClock.withValue(Locked(Clock(now: { Date() })), operation: body)
    }

    /// Runs `body` with `clock` in effect for the current task.
    @discardableResult
    public static func using<R>(_ clock: @escaping @Sendable () -> Date, _ body: () throws -> R) rethrows -> R {
        try $scoped.withValue(clock, operation: body)
    }
}
