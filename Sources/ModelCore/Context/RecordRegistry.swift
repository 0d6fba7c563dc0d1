import Synchronization

// The hooks through which the model layer reaches an identity map. ModelCore only knows
// that a load, a save and a property write may go through a registry; `ModelContext`
// (ModelQuery/Context) is the registry, and everything a context does lives there.

/// Where a registry answers a lookup by id.
package enum RegistryLookup {
    /// Not registered: read the store.
    case miss
    /// The registered instance.
    case hit(ModelObject)
    /// Registered and deleted in the registry (not yet in the store): there is no record.
    case deleted
}

/// An identity map the model layer consults: ``ModelProtocol/materialize(_:schema:store:registry:)``
/// resolves every loaded row through the current registry, `find` asks it first, saves
/// and explicit inserts register records, and a record's first change after a save marks
/// it as one to keep (see ``RegistryMembership``).
package protocol RecordRegistry: AnyObject, Sendable {
    /// The instance for a row read from `store`: the registered one (refreshed from the
    /// row when it has no unsaved changes), or a new one registered now.
    func resolve<M: ModelProtocol>(_ row: [ModelValue], schema: ModelSchema, store: any PersistenceAdapter, as type: M.Type) -> M
    /// The registered instance for an id in `store`, if any.
    func lookup<M: ModelProtocol>(id: ModelValue, schema: ModelSchema, store: any PersistenceAdapter, as type: M.Type)
        -> RegistryLookup
    /// A record was written to `store` (inserted or updated): it is registered under its id.
    /// `updated` says the write was an update of the row the record already held in
    /// `store` (same store, same id: a member's slot is its own).
    func didSave(_ record: ModelObject, schema: ModelSchema, store: any PersistenceAdapter, updated: Bool)
    /// A registered record changed for the first time since it was registered or saved.
    func noteChanged(_ record: ModelObject)
    /// Query results without the records deleted in the registry (one check per query).
    func visible<M: ModelProtocol>(_ records: [M]) -> [M]
    /// A change committed anywhere in the process to `store` (`instance` is the record
    /// that wrote it). A registry ignores the changes its own members wrote (they are the
    /// instances it holds): ``RegistryHub/takesChange(from:record:)`` builds none for it alone.
    func receive(_ change: ModelChange, from instance: AnyObject?, store: ObjectIdentifier)
}

/// One generation of a registry, shared by the records registered in it (a registry that
/// is cleared starts a new one and retires this), so registering a record allocates
/// nothing.
///
/// Immutable apart from the atomic flags, so a registry may retire it from any thread.
@usableFromInline package final class RegistryMembership: Sendable {
    /// The registry, held weakly without giving it a side table (see ``WeakRegistry``).
    private let reference: WeakRegistry
    /// Cleared when the registry forgets this generation's records.
    package let isCurrent = Atomic<Bool>(true)
    /// Set while the registry writes its pending records (``RecordRegistry/didSave(_:schema:store:updated:)``
    /// then leaves a member's update as it is): see ``membersNeedNoWordOfUpdates``.
    package let isSaving = Atomic<Bool>(false)

    package init(registry: any RecordRegistry) {
        reference = WeakRegistry(registry)
    }

    /// The registry, or nil once it is being freed.
    package var registry: (any RecordRegistry)? { reference.registry }

    /// Whether the registry is being freed (or gone), without holding it.
    package var registryIsGone: Bool { reference.isGone }

    /// Whether an update of a record of this generation, in the store it was loaded from
    /// or saved to, needs no word to the registry: the registry is writing its pending
    /// records, and keeps a member's slot and pending entry as they are while it does.
    /// Read without the registry's lock, so a save skips the lock (and the weak load of the
    /// registry) once per record. A stale answer either way is one the locked path gives
    /// too: a generation retired meanwhile reads as not current and takes that path.
    @inline(__always) package var membersNeedNoWordOfUpdates: Bool {
        isSaving.load(ordering: .acquiring) && isCurrent.load(ordering: .relaxed)
    }
}

extension ModelObject {
    /// Tells the record's registry about its first change since it was last clean
    /// (``ModelObject/__registryTracked`` is set until the registry untracks it).
    @inline(__always) package final func _noteRegistryChange() {
        guard let membership = __membership, !__registryTracked else { return }
        __registryTracked = true
        if membership.isCurrent.load(ordering: .relaxed) { membership.registry?.noteChanged(self) }
    }
}

/// Who may use a registry bound in a scope: the task that bound it, the thread that bound
/// it outside any task, or (for work carried to a pool thread for one call) anyone.
package enum RegistryOwner: Sendable {
    case task(TaskIdentity)
    case thread(UInt)
    case any

    /// The calling task, or the calling thread outside any task.
    package static var current: RegistryOwner {
        if let task = withUnsafeCurrentTask(body: { $0 }) { return .task(TaskIdentity(task)) }
        return .thread(currentThreadID())
    }

    /// Whether the caller is this owner.
    ///
    /// (`UnsafeCurrentTask` is a resilient type: comparing optionals of it with `==` copies
    /// them through value witnesses, several hundred instructions per read of a context.
    /// Matching the case copies nothing, and the thread, compared first, is one call.)
    package var isCaller: Bool {
        switch self {
        case .any: true
        case .thread(let thread):
            currentThreadID() == thread && withUnsafeCurrentTask { task in if case .none = task { true } else { false } }
        case .task(let identity):
            withUnsafeCurrentTask { task in if case .some(let current) = task { current == identity.task } else { false } }
        }
    }
}

/// A task's identity that no later task can share.
///
/// A task's address (what `UnsafeCurrentTask`'s hash is) is reused once the task is freed,
/// so a context made by a task that ended could take a new task at the same address for
/// its creator. `UnsafeCurrentTask` holds a strong reference to the task: keeping a copy
/// keeps the task object — and so its address — allocated for as long as this identity
/// lives. It is only ever compared, never used to act on the task.
///
/// `@unchecked Sendable`: `task` is immutable and only compared (by address).
package final class TaskIdentity: @unchecked Sendable {
    let task: UnsafeCurrentTask

    init(_ task: UnsafeCurrentTask) { self.task = task }
}

/// A registry bound to a scope, with the binding it shadows (the stack of scopes).
package final class RegistryBinding: Sendable {
    package let registry: any RecordRegistry
    package let owner: RegistryOwner
    package let outer: RegistryBinding?

    package init(registry: any RecordRegistry, owner: RegistryOwner, outer: RegistryBinding?) {
        self.registry = registry
        self.owner = owner
        self.outer = outer
    }
}

/// The registry of the current scope: a task-local binding, visible only to the task (or
/// thread) that made it, so tasks that inherit the binding (`Task {}`, task groups,
/// `async let`) work without a registry instead of sharing one.
package enum RegistryScope {
    @TaskLocal package static var binding: RegistryBinding?

    /// The registry loads and saves in this scope go through, if any.
    /// Bound registries are live in ``RegistryHub`` (they add themselves when made), so
    /// while none is, this is one relaxed load instead of a task-local read.
    @inline(__always) package static var current: (any RecordRegistry)? {
        guard RegistryHub.isActive, let binding else { return nil }
        return binding.owner.isCaller ? binding.registry : nil
    }

    /// `body`, made to run with the caller's registry wherever it runs (a pool thread for
    /// one blocking call, while the caller waits for it).
    package static func carried<T>(_ body: @escaping @Sendable () throws -> sending T) -> @Sendable () throws -> sending T {
        guard let registry = current else { return body }
        let binding = RegistryBinding(registry: registry, owner: .any, outer: nil)
        return { try $binding.withValue(binding, operation: body) }
    }
}

/// Every live registry, so a commit anywhere reaches the instances other registries hold.
package enum RegistryHub {
    private final class Entry: Sendable {
        let reference: WeakRegistry
        init(_ registry: any RecordRegistry) { reference = WeakRegistry(registry) }
    }
    private static let entries = Locked<[ObjectIdentifier: Entry]>([:])
    private static let liveCount = Atomic<Int>(0)

    /// Whether any registry is live (one atomic load on every commit otherwise).
    @inline(__always) package static var isActive: Bool { liveCount.load(ordering: .relaxed) > 0 }

    /// Whether a change `instance` writes reaches a registry that uses it: false when no
    /// registry is live, or when the only live one is the registry `instance` belongs to
    /// (a registry ignores its own members' changes: see ``RecordRegistry/receive(_:from:store:)``).
    /// A context saving its records, with no other context alive, builds no changes.
    ///
    /// (Every live registry is in the hub from its creation, and a weak reference to one
    /// reads nil once it is being freed: with one live, a membership's non-nil registry is
    /// that one.) `record` is `instance` as a record, when the caller has it typed: it
    /// saves a dynamic cast a write.
    @inline(__always) package static func takesChange(from instance: AnyObject?, record: ModelObject? = nil) -> Bool {
        let live = liveCount.load(ordering: .relaxed)
        if live != 1 { return live > 1 }
        guard let record = record ?? (instance as? ModelObject), let membership = record.__membership else { return true }
        // A registry writing its records is alive (its save is running), so the only one
        // live is the record's own: no need to try to retain it.
        if membership.isSaving.load(ordering: .acquiring) { return false }
        return membership.registryIsGone
    }

    package static func add(_ registry: any RecordRegistry) {
        entries.withLock { $0[ObjectIdentifier(registry)] = Entry(registry) }
        liveCount.add(1, ordering: .relaxed)
    }

    package static func remove(_ id: ObjectIdentifier) {
        let removed = entries.withLock { $0.removeValue(forKey: id) }
        if removed != nil { liveCount.subtract(1, ordering: .relaxed) }
    }

    /// The live registries.
    package static var all: [any RecordRegistry] {
        entries.withLock { $0.values.compactMap(\.reference.registry) }
    }

    /// Hands a change committed to `store` to every live registry.
    package static func deliver(_ change: ModelChange, instance: AnyObject?, store: ObjectIdentifier) {
        for registry in all { registry.receive(change, from: instance, store: store) }
    }

    /// Hands a commit's changes, in order, to every live registry. The registries are
    /// listed once for the commit, not once per change (a lock and an array each).
    package static func deliver(_ changes: UnsafeBufferPointer<PendingChange>, store: ObjectIdentifier) {
        guard !changes.isEmpty else { return }
        let registries = all
        guard !registries.isEmpty else { return }
        for k in changes.indices {
            let instance = changes[k].instance
            for registry in registries { registry.receive(changes[k].change, from: instance, store: store) }
        }
    }
}
