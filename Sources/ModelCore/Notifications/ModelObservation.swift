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
    #if canImport(SwiftUI)
        @usableFromInline static let enabled = Atomic<Bool>(true)
    #else
        @usableFromInline static let enabled = Atomic<Bool>(false)
    #endif

    /// Whether property reads register with Observation: `true` by default on platforms
    /// with SwiftUI, `false` elsewhere. Set it at startup. Turning it off stops new
    /// registrations; records already registered still notify.
    public static var isEnabled: Bool {
        @inlinable get { enabled.load(ordering: .relaxed) }
        set { enabled.store(newValue, ordering: .relaxed) }
    }
}
