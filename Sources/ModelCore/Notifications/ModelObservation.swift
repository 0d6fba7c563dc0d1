import Synchronization

/// Support for the Observation framework: records are `Observable`, so SwiftUI views and
/// `withObservationTracking` see their `@Column` changes with no code in the model.
///
/// Tracking is per record: a view that read any column of a record is invalidated when
/// any column of that record changes — by property, by name (`record["name"] = …`),
/// `reload()`, `revert()`, a rolled-back transaction or the id and timestamps a save
/// sets. Changes to other records never invalidate it.
///
/// <!-- snippet: skip SwiftUI exists on Apple platforms only -->
/// ```swift
/// struct TodoRow: View {
///     let todo: Todo                 // a model: no @Observable, no extra code
///     var body: some View { Text(todo.name) }   // redrawn when todo changes
/// }
/// ```
///
/// Costs (measured in Docs/Concurrency.md): a record gets its registrar on its first
/// property read (about 100 ns); then each property read asks Observation whether a view
/// is tracking (about 40–130 ns) and each change of a record that was read notifies it
/// (about 50–180 ns). Records never read through a property (imports, bulk work, JSON)
/// pay one branch per write. So it is on by default where SwiftUI exists (Apple
/// platforms) and off elsewhere (Linux servers): set ``isEnabled`` to change that. Opt a
/// model out with `static var isObservable: Bool { false }`.
public enum ModelObservation {
    /// Bit 0: the process-wide setting. The rest: twice the number of scoped settings
    /// bound anywhere (``using(enabled:_:)``), so while none is, a read is one load.
    #if canImport(SwiftUI)
        @usableFromInline static let state = Atomic<Int>(1)
    #else
        @usableFromInline static let state = Atomic<Int>(0)
    #endif
    @TaskLocal private static var scoped: Bool?

    /// Whether property reads register with Observation: `true` by default on platforms
    /// with SwiftUI, `false` elsewhere. Set it at startup. Turning it off stops new
    /// registrations; records already registered still notify.
    public static var isEnabled: Bool {
        @inlinable get {
            let state = state.load(ordering: .relaxed)
            return state < 2 ? state == 1 : scopedSetting(processWide: state & 1 == 1)
        }
        set {
            if newValue { state.bitwiseOr(1, ordering: .relaxed) } else { state.bitwiseAnd(~1, ordering: .relaxed) }
        }
    }

    /// The setting of the current task's private scope, else the process's.
    @usableFromInline static func scopedSetting(processWide: Bool) -> Bool { scoped ?? processWide }

    /// Runs `body` with ``isEnabled`` as `enabled` for the current task and the tasks it
    /// starts (task-local, as ``ModelClock/using(_:_:)``), whatever the process's setting:
    /// for tests, which run in parallel, and for work that should not register.
    ///
    /// <!-- snippet: skip importEverything stands for the app's own work -->
    /// ```swift
    /// try ModelObservation.using(enabled: false) { try importEverything() }
    /// ```
    @discardableResult
    public static func using<R>(enabled: Bool, _ body: () throws -> R) rethrows -> R {
        state.add(2, ordering: .relaxed)
        defer { state.subtract(2, ordering: .relaxed) }
        return try $scoped.withValue(enabled, operation: body)
    }

    /// ``using(enabled:_:)`` for an async body.
    @discardableResult
    nonisolated(nonsending) public static func using<R>(enabled: Bool, _ body: () async throws -> R) async rethrows -> R {
        state.add(2, ordering: .relaxed)
        defer { state.subtract(2, ordering: .relaxed) }
        return try await $scoped.withValue(enabled, operation: body)
    }
}
