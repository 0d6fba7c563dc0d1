import ModelCore

/// The order ``ModelContext/save()`` writes in: parents before children, so foreign keys
/// point at stored rows; deletions children first, so a parent's delete rules find only
/// what the context did not delete itself.
extension ModelContext {
    /// The records a save writes and deletes, in order.
    struct Work {
        var writes: [ModelObject] = []
        var deletes: [ModelObject] = []
        /// The pending table's ``State/sequence`` and size when the work was read.
        var sequence = 0
        var pendingCount = 0
        var isEmpty: Bool { writes.isEmpty && deletes.isEmpty }
    }

    func pendingWork() -> Work {
        // The table's entries in tracking order: copying the array is one reference.
        let (entries, count, sequence) = state.withLock { ($0.pending.ordered, $0.pending.count, $0.sequence) }
        var writes: [ModelObject] = []
        var deletes: [ModelObject] = []
        writes.reserveCapacity(count)
        // What ordering the writes needs is found in the same pass, while each record is
        // at hand: a second and third pass over ten thousand records (their models, then
        // their links) cost more in cache misses than in instructions.
        var firstModel: ObjectIdentifier?
        var severalModels = false
        var linksUnsavedParents = false
        for case let entry? in entries {
            let record = entry.record
            if entry.deleted {
                if record._isPersisted { deletes.append(record) }
            } else if !record._isPersisted || record._valuesChanged {
                writes.append(record)
                let model = record._attachedSchema.map { ObjectIdentifier($0) }
                if writes.count == 1 { firstModel = model } else if model != firstModel { severalModels = true }
                if !linksUnsavedParents, hasUnsavedParent(record) { linksUnsavedParents = true }
            }
        }
        var ranks = SchemaRanks()
        return Work(
            writes: ordered(writes, ranks: &ranks, severalModels: severalModels, linksUnsavedParents: linksUnsavedParents),
            deletes: deleteOrder(deletes, ranks: &ranks), sequence: sequence, pendingCount: count)
    }

    /// Writes ordered by model depth (a model after the models it belongs to), then each
    /// record after the unsaved parents it is linked to (which covers a model that belongs
    /// to itself), keeping registration order otherwise.
    ///
    /// Records of one model (the usual save) are not sorted, and without links to unsaved
    /// parents (updates) there is no walk: the caller found both while collecting them.
    private func ordered(
        _ records: [ModelObject], ranks: inout SchemaRanks, severalModels: Bool, linksUnsavedParents: Bool
    ) -> [ModelObject] {
        let byRank = severalModels ? Self.sorted(records, ranks: &ranks, deepestFirst: false) : records
        guard linksUnsavedParents else { return byRank }
        let included = Set(records.map(ObjectIdentifier.init))
        var done = Set<ObjectIdentifier>()
        var visiting = Set<ObjectIdentifier>()
        var result: [ModelObject] = []
        func visit(_ record: ModelObject) {
            let id = ObjectIdentifier(record)
            guard !done.contains(id), visiting.insert(id).inserted else { return }
            for parent in unsavedParents(of: record) where included.contains(ObjectIdentifier(parent)) { visit(parent) }
            visiting.remove(id)
            done.insert(id)
            result.append(record)
        }
        for record in byRank { visit(record) }
        return result
    }

    /// Deletes: deepest models first.
    private func deleteOrder(_ records: [ModelObject], ranks: inout SchemaRanks) -> [ModelObject] {
        Self.sorted(records, ranks: &ranks, deepestFirst: true)
    }

    /// `records` by model depth, stably (registration order within a depth).
    private static func sorted(_ records: [ModelObject], ranks: inout SchemaRanks, deepestFirst: Bool) -> [ModelObject] {
        // One model (the usual save): no list of depths.
        guard let head = records.first else { return records }
        let first = ranks.rank(head)
        var k = 1
        while k < records.count, ranks.rank(records[k]) == first { k += 1 }
        if k == records.count { return records }
        let depths = records.map { ranks.rank($0) }
        return records.indices.sorted { a, b in
            if depths[a] != depths[b] { return deepestFirst ? depths[a] > depths[b] : depths[a] < depths[b] }
            return a < b
        }.map { records[$0] }
    }

    /// Whether `record` is linked to a parent that is not saved yet (``unsavedParents(of:)``
    /// is not empty), without listing them.
    private func hasUnsavedParent(_ record: ModelObject) -> Bool {
        if record._pendingInverseOwner != nil { return true }
        guard let links = record._extrasIfAny?.related.parents else { return false }
        return links.values.contains { $0.pending && $0.parent != nil }
    }

    /// The records `record` is linked to through a `@BelongsTo` (assigned, or reached
    /// through the owner) that are not saved yet.
    private func unsavedParents(of record: ModelObject) -> [ModelObject] {
        var parents: [ModelObject] = []
        if let owner = record._pendingInverseOwner { parents.append(owner) }
        if let links = record._extrasIfAny?.related.parents {
            for link in links.values where link.pending { if let parent = link.parent { parents.append(parent) } }
        }
        return parents
    }
}

/// Model depth by `@BelongsTo`: 0 for a model that belongs to nothing, else one more than
/// the deepest model it belongs to (a cycle counts once).
struct SchemaRanks {
    private var ranks: [ObjectIdentifier: Int] = [:]
    /// The last schema asked about and its rank: a save is mostly records of one model.
    private var last: (schema: ObjectIdentifier, rank: Int)?

    mutating func rank(_ record: ModelObject) -> Int {
        guard let schema = record._attachedSchema else { return 0 }
        let id = ObjectIdentifier(schema)
        if let last, last.schema == id { return last.rank }
        let rank = rank(schema, visiting: [])
        last = (id, rank)
        return rank
    }

    private mutating func rank(_ schema: ModelSchema, visiting: Set<ObjectIdentifier>) -> Int {
        let id = ObjectIdentifier(schema)
        if let known = ranks[id] { return known }
        guard !visiting.contains(id) else { return 0 }
        var next = visiting
        next.insert(id)
        var depth = 0
        for relation in (try? schema.relations()) ?? [] where relation.kind == .belongsTo && relation.target !== schema {
            depth = Swift.max(depth, rank(relation.target, visiting: next) + 1)
        }
        ranks[id] = depth
        return depth
    }
}
