import ModelCore

extension ModelContext {
    /// A record's identity in a context: its store, model and id. The same id in two
    /// stores is two records, on every load path.
    ///
    /// Hashes one word mixed from the three when the key is made (the dictionary then runs
    /// SipHash over 8 bytes instead of the three fields, about 40) — a lookup that misses
    /// and the registration after it each hash the key once more.
    struct Key: Hashable {
        let store: ObjectIdentifier?
        let schema: ObjectIdentifier
        let id: ModelValue
        private let mixed: Int

        init(store: ObjectIdentifier?, schema: ModelSchema, id: ModelValue) {
            self.store = store
            self.schema = ObjectIdentifier(schema)
            self.id = id
            let idBits: UInt64
            switch id {
            case .int(let value): idBits = UInt64(bitPattern: value)
            case .null: idBits = 0
            default: idBits = UInt64(bitPattern: Int64(id.hashValue))
            }
            // Distinct ids of one table and store differ in the word (the multiplier is odd,
            // so the mix is a bijection of the id bits for fixed identifiers).
            let identities = UInt64(store.map { UInt(bitPattern: $0) } ?? 0) &* 0x9E37_79B9_7F4A_7C15
                ^ UInt64(UInt(bitPattern: self.schema))
            mixed = Int(bitPattern: UInt(truncatingIfNeeded: (idBits ^ identities) &* 0xBF58_476D_1CE4_E5B9))
        }

        static func == (a: Key, b: Key) -> Bool {
            a.mixed == b.mixed && a.id == b.id && a.schema == b.schema && a.store == b.store
        }

        func hash(into hasher: inout Hasher) { hasher.combine(mixed) }

        init(store: (any PersistenceAdapter)?, schema: ModelSchema, id: ModelValue) {
            self.init(store: store.map { ObjectIdentifier($0) }, schema: schema, id: id)
        }
    }

    /// A registered record: weakly, or strongly for a context that retains records.
    ///
    /// The weak reference is a ``WeakRecord``, not a Swift `weak` one, which would give
    /// every record the context meets a side table (see Docs/Benchmarks.md, "Stop 66").
    /// A strong slot keeps no weak reference beside it: the strong one already answers
    /// ``record``.
    struct Slot {
        var weak: WeakRecord?
        var strong: ModelObject?
        var record: ModelObject? { strong ?? weak?.record }

        /// An empty slot.
        static var empty: Slot { Slot() }

        private init() {}

        /// Whether the slot holds `record` (which the caller holds), retaining nothing.
        func holds(_ record: ModelObject) -> Bool {
            strong === record || weak?.refers(to: record) == true
        }

        /// `record`, held strongly when `retains`, else weakly.
        init(_ record: ModelObject, retains: Bool) {
            if retains {
                strong = record
            } else {
                // The context may hand the record to another thread (see UndoLog).
                record._noteHeldWeakly()
                weak = WeakRecord(record)
            }
        }
    }

    /// Everything a context holds, guarded by its lock.
    struct State {
        var generation = 0
        /// The membership the records registered in this generation share.
        var token: RegistryMembership?
        var byID: [Key: Slot] = [:]
        var pending = PendingTable()
        var deletedCount = 0
        /// Commits from other tasks and threads, applied by the context's own user.
        var inbox: [(ModelChange, source: ObjectIdentifier?, store: ObjectIdentifier)] = []
        /// Counts ``track(_:deleted:)`` calls: a save that finds it unchanged knows nothing
        /// was tracked while it wrote.
        var sequence = 0
        var pruneAt = 1024
        /// While ``ModelContext/save()`` writes: saves do not change the pending table.
        var isSaving = false

        init(generation: Int = 0) { self.generation = generation }

        /// Drops the slots of records that no longer exist.
        mutating func prune() {
            byID = byID.filter { $0.value.record != nil }
            pruneAt = Swift.max(1024, byID.count * 2)
            // Room for the next slots, so a table pruned down to a few does not grow (and
            // rehash) step by step again; bounded, so a large table reserves little more
            // than it holds.
            byID.reserveCapacity(Swift.min(pruneAt, byID.count + 4096))
        }

        mutating func track(_ record: ModelObject, deleted: Bool = false) {
            sequence += 1
            if pending.track(record, deleted: deleted) { deletedCount += 1 }
        }

        /// Stops holding the record as pending work; its next change reports again.
        mutating func untrack(_ record: ModelObject) {
            record._registryTracked = false
            if let entry = pending.remove(record), entry.deleted { deletedCount -= 1 }
        }

        /// Removes a record from every table; its membership, when it was one.
        mutating func remove(_ record: ModelObject) -> RegistryMembership? {
            untrack(record)
            if let schema = record._attachedSchema {
                let key = Key(store: record._home, schema: schema, id: record.__baselineID)
                if byID[key]?.holds(record) == true { byID[key] = nil }
            }
            return isMember(record) ? token : nil
        }

        /// Whether `record` is registered in this generation.
        func isMember(_ record: ModelObject) -> Bool {
            guard let token else { return false }
            return record._membership === token
        }

        /// This generation's membership, made on first use.
        mutating func membership(for registry: ModelContext) -> RegistryMembership {
            if let token { return token }
            let made = RegistryMembership(registry: registry)
            token = made
            return made
        }
    }
}

import Foundation

/// Whether the caller runs on the main thread (where main-actor code runs).
func isMainThread() -> Bool { Thread.isMainThread }
