import ModelCore
import Synchronization

/// A set of records with one instance per stored record (an identity map), the unsaved
/// changes to them (a unit of work), and a place in a stack of scopes.
///
/// ```swift
/// let context = ModelContext()
/// try context.run {
///     let a = try Todo.find(1)
///     let b = try Todo.where(\.name == "walk").first()
///     print(a === b)               // true: one instance per record
///     a?.name = "run"
///     try context.save()           // every change, in one store transaction
/// }
/// ```
///
/// ## Memory
/// A context holds unchanged records **weakly** and records with unsaved changes
/// (inserted, changed, deleted) **strongly** until ``save()``, ``rollback()`` or
/// ``clear()``. A long-lived context therefore holds only what the program still uses plus
/// its pending work; pass `retainsRecords: true` to keep every loaded record as a cache
/// (bounded by ``evict(_:)``, ``evictUnchanged()`` and ``clear()``).
///
/// ## Threading
/// A context is `Sendable`: its tables are guarded by a lock, so it can be shared, cleared
/// and told about commits from any thread. Its records are not: use a context from one
/// task, actor or thread at a time, as you would its records. ``run(_:)`` binds it to the
/// calling task only — tasks started inside (`Task {}`, task groups) see no context.
///
/// `@unchecked Sendable`: every mutable table is inside `state`, read and written only
/// while holding its lock (``Locked``); `inboxCount` is atomic; the other properties are
/// constants.
public final class ModelContext: @unchecked Sendable {
    /// The context whose unit of work ``save()`` merges into, or nil for one that writes
    /// to the store.
    public let parent: ModelContext?
    /// Whether unchanged records are held strongly (see "Memory").
    public let retainsRecords: Bool
    /// A name for logs and descriptions.
    public let name: String?

    /// Who made the context: commits by the same task or thread reach its records at once.
    let creator: RegistryOwner
    let createdOnMainThread: Bool
    /// The private group the context was created in (``withPrivateContexts(_:)``), if any.
    let privateGroup: PrivateContextGroup?
    let state = Locked(State())
    /// How many commits wait in the inbox (read without the lock on every load).
    let inboxCount = Atomic<Int>(0)

    /// Creates an empty context.
    ///
    /// - Parameters:
    ///   - parent: a context this one saves into instead of the store (a child context).
    ///   - retainsRecords: hold unchanged records strongly, as a cache.
    ///   - name: a name for descriptions.
    public init(parent: ModelContext? = nil, retainsRecords: Bool = false, name: String? = nil) {
        self.parent = parent
        self.retainsRecords = retainsRecords
        self.name = name
        creator = .current
        createdOnMainThread = isMainThread()
        privateGroup = Self.currentPrivateGroup
        RegistryHub.add(self)
    }

    deinit { RegistryHub.remove(ObjectIdentifier(self)) }

    /// How many records the context holds now (live instances and pending work).
    public var count: Int {
        state.withLock { state in
            state.prune()
            var seen = Set<ObjectIdentifier>()
            for slot in state.byID.values { if let record = slot.record { seen.insert(ObjectIdentifier(record)) } }
            for entry in state.pending.values { seen.insert(ObjectIdentifier(entry.record)) }
            return seen.count
        }
    }

    /// An estimate of the memory the held records' values take, in bytes: each record's
    /// current and saved rows, with string and data payloads.
    public var approximateByteSize: Int {
        records.reduce(0) { total, record in
            total + 64 + record._currentValues.approximateByteSize + record.__baselineRow.approximateByteSize
        }
    }

    /// The records the context holds, in no particular order.
    public var registeredRecords: [any ModelProtocol] { records.compactMap(\.asModel) }

    /// The held records (live instances and pending work), each once.
    var records: [ModelObject] {
        state.withLock { state in
            var seen = Set<ObjectIdentifier>()
            var list: [ModelObject] = []
            for pending in state.pending.values where seen.insert(ObjectIdentifier(pending.record)).inserted {
                list.append(pending.record)
            }
            for slot in state.byID.values {
                if let record = slot.record, seen.insert(ObjectIdentifier(record)).inserted { list.append(record) }
            }
            return list
        }
    }

    /// Forgets every record and every unsaved change. Records already handed out keep
    /// their values but no longer belong to the context (a later `find` loads a new
    /// instance).
    public func clear() {
        state.withLock { state in
            // The dropped records' memberships stop reporting changes.
            state.token?.isCurrent.store(false, ordering: .relaxed)
            state = State(generation: state.generation + 1)
        }
    }

    /// Clears every live context in the process (see ``clear()``).
    public static func clearAll() {
        let group = currentPrivateGroup
        for case let context as ModelContext in RegistryHub.all where group == nil || context.privateGroup === group {
            context.clear()
        }
    }

    /// Removes one record from the context, with any unsaved change to it in the unit of
    /// work (its values stay as they are on the instance).
    public func evict(_ record: some ModelProtocol) {
        detach(record)
    }

    /// Removes every record without unsaved changes (for a context that retains records).
    public func evictUnchanged() {
        for record in records where !hasUnsavedChanges(record) { detach(record) }
    }

    /// Removes a record from the context's tables and ends its membership.
    func detach(_ record: ModelObject) {
        state.withLock { state in
            guard state.remove(record) != nil else { return }
            record._membership = nil
            record._registryTracked = false
        }
    }

    /// Whether the record has changes the context would save.
    func hasUnsavedChanges(_ record: ModelObject) -> Bool {
        if state.withLock({ $0.pending[record]?.deleted ?? false }) { return true }
        return !record._isPersisted || record._valuesChanged
    }
}

extension ModelContext: CustomStringConvertible {
    public var description: String {
        "ModelContext\(name.map { " \"\($0)\"" } ?? "") (\(count) records\(parent == nil ? "" : ", child"))"
    }
}

extension [ModelValue] {
    /// An estimate of the bytes a row takes: one slot per value plus payloads.
    var approximateByteSize: Int {
        var total = count * MemoryLayout<ModelValue>.stride
        for value in self { total += value.payloadBytes }
        return total
    }
}

extension ModelValue {
    var payloadBytes: Int {
        switch self {
        case .string(let s): s.utf8.count
        case .data(let d): d.count
        case .array(let a): a.approximateByteSize
        case .dictionary(let d): d.reduce(0) { $0 + $1.key.utf8.count + MemoryLayout<ModelValue>.stride + $1.value.payloadBytes }
        default: 0
        }
    }
}
