import ModelCore

extension ModelContext {
    /// A record held because it may have changes to save.
    struct Pending {
        let record: ModelObject
        /// Deleted in the context (the store still has it until ``ModelContext/save()``).
        var deleted: Bool
    }

    /// The records a context holds as pending work, in the order they were first tracked
    /// (the order ``ModelContext/save()`` keeps within a model).
    ///
    /// Entries sit in an array in tracking order, and each record remembers its place
    /// (``ModelObject/_pendingPlace``, checked against the entry there): tracking a
    /// record, finding it and removing it hash nothing, and a save reads the entries in
    /// order by copying the array (one reference, under the context's lock) without
    /// sorting. Removing an entry leaves a hole; the array is compacted once holes
    /// outnumber entries. Used only holding the context's lock.
    struct PendingTable {
        private var entries: [Pending?] = []
        /// How many entries are not holes.
        private(set) var count = 0

        /// The place of `record`'s entry, if it has one in this table.
        @inline(__always) private func place(of record: ModelObject) -> Int? {
            let place = record._pendingPlace
            guard place >= 0, place < entries.count, entries[place]?.record === record else { return nil }
            return place
        }

        /// The pending entry for a record, if any.
        subscript(record: ModelObject) -> Pending? {
            place(of: record).flatMap { entries[$0] }
        }

        /// The entries in tracking order (holes included: skip nil).
        var ordered: [Pending?] { entries }

        /// The entries, in tracking order.
        var values: [Pending] { entries.compactMap { $0 } }

        /// Adds `record`, or marks its entry deleted; returns whether it newly became a
        /// deleted entry.
        mutating func track(_ record: ModelObject, deleted: Bool) -> Bool {
            if let place = place(of: record) {
                guard deleted, entries[place]?.deleted == false else { return false }
                entries[place]?.deleted = true
                return true
            }
            record._pendingPlace = entries.count
            entries.append(Pending(record: record, deleted: deleted))
            count += 1
            return deleted
        }

        /// Removes a record's entry and returns it.
        mutating func remove(_ record: ModelObject) -> Pending? {
            guard let place = place(of: record) else { return nil }
            let entry = entries[place]
            entries[place] = nil
            record._pendingPlace = -1
            count -= 1
            if entries.count > 32, entries.count > 2 * count { compact() }
            return entry
        }

        /// Removes every entry. The table keeps its room for the next unit of work, up to
        /// a bound (so one large save does not hold its memory). The records keep their
        /// places, which no longer match an entry.
        mutating func removeAll() {
            entries.removeAll(keepingCapacity: count <= 1 << 16)
            count = 0
        }

        /// Closes the holes, keeping the order.
        private mutating func compact() {
            var kept: [Pending?] = []
            kept.reserveCapacity(count)
            for case let entry? in entries {
                entry.record._pendingPlace = kept.count
                kept.append(entry)
            }
            entries = kept
        }
    }
}
