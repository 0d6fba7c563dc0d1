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
    /// NotificationCenter posting (see ``CenterMode``): the process's setting, or a task's
    /// private one (``withPrivateSettings(_:)``).
    private static let processCenter = CenterSetting()
    @TaskLocal private static var privateCenter: CenterSetting?
    /// How many private settings are bound anywhere: while none is, the task-local is not
    /// read (posting is decided per change).
    private static let privateScopes = Atomic<Int>(0)
    @inline(__always) private static var center: CenterSetting {
        if privateScopes.load(ordering: .relaxed) == 0 { return processCenter }
        return privateCenter ?? processCenter
    }

    /// One NotificationCenter posting mode.
    private final class CenterSetting: Sendable {
        let mode = Atomic<UInt8>(CenterMode.unused.rawValue)
    }

    /// Runs `body` with a private NotificationCenter posting mode (starting unused): what
    /// ``postsToNotificationCenter`` and naming `.modelDidChange` set inside it stays
    /// inside it and the tasks it starts. For tests, which run in parallel.
    package static func withPrivateSettings<R>(_ body: () throws -> R) rethrows -> R {
        privateScopes.add(1, ordering: .relaxed)
        defer { privateScopes.subtract(1, ordering: .relaxed) }
        return try $privateCenter.withValue(CenterSetting(), operation: body)
    }
    /// The name posts go under (``Foundation/Notification/Name/modelDidChange`` without
    /// noting interest).
    package static let centerName = Notification.Name("SwiftModel.modelDidChange")

    /// Whether changes go to `NotificationCenter`: only once someone may observe them.
    package enum CenterMode: UInt8 {
        /// Nobody named `.modelDidChange` and nobody chose: no posts.
        case unused
        /// The program named `.modelDidChange`: posts.
        case named
        /// Set explicitly with ``postsToNotificationCenter``.
        case on, off

        /// Whether changes are posted in this mode.
        package var posts: Bool { self == .named || self == .on }
        /// The mode after the program names `.modelDidChange`: an explicit choice stays.
        package var named: CenterMode { self == .unused ? .named : self }
    }
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

    /// Whether changes are also posted to `NotificationCenter.default`.
    ///
    /// By default posting starts the first time the program names
    /// ``Foundation/Notification/Name/modelDidChange`` (as `addObserver(forName:
    /// .modelDidChange, …)` does), so programs that never observe it do not pay for a post
    /// per change (about a microsecond each on Linux). Setting this decides for good:
    /// `true` posts from now on (an observer registered under the raw name string),
    /// `false` never posts.
    public static var postsToNotificationCenter: Bool {
        get { postsToCenter }
        set { center.mode.store(newValue ? CenterMode.on.rawValue : CenterMode.off.rawValue, ordering: .relaxed) }
    }

    /// Whether a change is posted now.
    @inline(__always) static var postsToCenter: Bool {
        CenterMode(rawValue: center.mode.load(ordering: .relaxed))?.posts ?? true
    }

    /// The program named `.modelDidChange`: post from now on, unless it chose otherwise.
    package static func noteCenterInterest() {
        _ = center.mode.compareExchange(
            expected: CenterMode.unused.rawValue, desired: CenterMode.unused.named.rawValue, ordering: .relaxed)
    }

    /// Whether anyone takes changes now (NotificationCenter or a ``changes()`` stream):
    /// when nobody does, a write outside a transaction builds no ``ModelChange``.
    package static var hasListeners: Bool {
        postsToCenter || subscriberCount.load(ordering: .acquiring) > 0
    }

    /// Runs `body` with no change notifications for the current task. Nestable; the
    /// previous state is restored when `body` returns or throws.
    @discardableResult
    public static func withoutNotifications<R>(_ body: () throws -> R) rethrows -> R {
        try $suppressed.withValue(true, operation: body)
    }

    /// Whether notifications are suppressed for the current task.
    public static var areSuppressed: Bool { suppressed }

    /// Delivers a committed change now.
    package static func deliver(_ change: ModelChange, instance: AnyObject?, subscribedBy last: UInt64 = .max) {
        if postsToCenter {
            NotificationCenter.default.post(name: centerName, object: instance, userInfo: ["change": change])
        }
        if subscriberCount.load(ordering: .acquiring) > 0 {
            let continuations = subscribers.withLock { subscribers in
                last == .max ? Array(subscribers.values) : subscribers.compactMap { $0.key <= last ? $0.value : nil }
            }
            for continuation in continuations { continuation.yield(change) }
        }
    }

    /// The newest change stream's number: a change made now goes, at its commit, to the
    /// streams numbered up to this one (those listening when it was made).
    package static var lastSubscriber: UInt64 { nextID.load(ordering: .relaxed) }
}
