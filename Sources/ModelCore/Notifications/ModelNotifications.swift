import Foundation
import Synchronization

/// Change notifications: subscribe, suppress for a scope, and configure delivery.
///
/// ```swift
/// for await change in ModelNotifications.changes(of: Todo.self) {
///     print(change.action, change.id)
/// }
///
/// try ModelNotifications.withoutNotifications {     // nestable; restored on throw
///     try importFixtures()
/// }
/// ```
public enum ModelNotifications {
    private static let subscribers = Locked<[UInt64: AsyncStream<ModelChange>.Continuation]>([:])
    private static let subscriberCount = Atomic<Int>(0)
    private static let nextID = Atomic<UInt64>(0)
    private static let postsToCenter = Atomic<Bool>(true)
    @TaskLocal private static var suppressed = false

    /// A stream of every committed change, from now on. Ends when the consumer stops.
    public static func changes(bufferingPolicy: AsyncStream<ModelChange>.Continuation.BufferingPolicy = .unbounded)
        -> AsyncStream<ModelChange>
    {
        let (stream, continuation) = AsyncStream.makeStream(of: ModelChange.self, bufferingPolicy: bufferingPolicy)
        let id = nextID.add(1, ordering: .relaxed).newValue
        subscribers.withLock { $0[id] = continuation }
        subscriberCount.add(1, ordering: .releasing)
        continuation.onTermination = { _ in
            let removed = subscribers.withLock { $0.removeValue(forKey: id) }
            if removed != nil { subscriberCount.subtract(1, ordering: .releasing) }
        }
        return stream
    }

    /// A stream of the committed changes to one model type.
    public static func changes<M: Model>(of type: M.Type) -> AsyncStream<ModelChange> {
        let all = changes()
        let key = ObjectIdentifier(type)
        return AsyncStream { continuation in
            let task = Task {
                for await change in all where change.modelType == key { continuation.yield(change) }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Whether changes are also posted to `NotificationCenter.default` (default `true`).
    public static var postsToNotificationCenter: Bool {
        get { postsToCenter.load(ordering: .relaxed) }
        set { postsToCenter.store(newValue, ordering: .relaxed) }
    }

    /// Runs `body` with no change notifications for the current todo. Nestable; the
    /// previous state is restored when `body` returns or throws.
    @discardableResult
    public static func withoutNotifications<R>(_ body: () throws -> R) rethrows -> R {
        try $suppressed.withValue(true, operation: body)
    }

    /// Whether notifications are suppressed for the current todo.
    public static var areSuppressed: Bool { suppressed }

    /// Delivers a committed change now.
    package static func deliver(_ change: ModelChange, instance: AnyObject?) {
        if postsToCenter.load(ordering: .relaxed) {
            NotificationCenter.default.post(name: .modelDidChange, object: instance, userInfo: ["change": change])
        }
        if subscriberCount.load(ordering: .acquiring) > 0 {
            for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(change) }
        }
    }
}
