/// The related records one record holds in memory — the only place relation state lives
/// on a record. The relation types (ModelQuery/Relations) fill and read it; `save()`
/// links pending parents and writes staged children; `reload()` empties it.
///
/// Records are kept as ``ModelObject``: each relation type stores records of its own
/// target type and reads them back with a checked cast to that type.
package struct RelatedRecords {
    /// Parents of `@BelongsTo` properties, by foreign-key slot.
    package var parents: [Int: ParentLink] = [:]
    /// Children of `@HasMany`/`@HasOne` relations, by relation location: eager-loaded,
    /// loaded with `load(_:)`, or read from a document.
    package var children: [Int: [ModelObject]] = [:]
    /// `@HasOne` children assigned since the last save, by relation location; `save()`
    /// writes them through the relation's ``StagedRelationWriter``.
    package var staged: [Int: StagedChild] = [:]
    /// While a key path is resolved to its relation on a prototype: the location of the
    /// relation property the key path read (`-1` until one is read).
    package var probe: Int?

    /// Forgets everything (after `reload()`: the store is the truth again).
    package mutating func removeAll() {
        parents = [:]
        children = [:]
        staged = [:]
    }
}

/// A parent remembered by a child's `@BelongsTo`: loaded for a foreign-key value, or
/// assigned before it had an id.
package struct ParentLink {
    /// The foreign-key value the parent was loaded for (or `.null` while pending).
    package let key: ModelValue
    /// The parent, or nil when no parent has that id.
    package let parent: ModelObject?
    /// Assigned while unsaved: link it when the child is saved.
    package let pending: Bool

    package init(key: ModelValue, parent: ModelObject?, pending: Bool) {
        self.key = key
        self.parent = parent
        self.pending = pending
    }

    /// Whether this link answers for the foreign-key value `key`.
    package func answers(for key: ModelValue) -> Bool {
        pending ? key.isNull : (key == self.key && !key.isNull)
    }
}

/// The owner a record was reached through (`owner.children.all()`, eager loading, a
/// nested document): it answers the record's `@BelongsTo` at `slot` while the foreign key
/// holds the owner's id (or, `pending`, while both are still unsaved and the key is nil).
///
/// Held **weakly**: the owner holds its loaded children, so a strong link back would make
/// every eager load a reference cycle. Stored inline on the record (no allocation per
/// child).
package struct InverseLink {
    package weak var owner: ModelObject?
    package var slot: Int32 = -1
    package var pending = false

    package init() {}

    package init(owner: ModelObject, slot: Int, pending: Bool) {
        self.owner = owner
        self.slot = Int32(truncatingIfNeeded: slot)
        self.pending = pending
    }

    /// The owner, when this link answers for the foreign key `key` at `slot`.
    package func owner(slot: Int, key: ModelValue) -> ModelObject? {
        guard Int(self.slot) == slot, let owner else { return nil }
        if pending { return key.isNull ? owner : nil }
        return !key.isNull && key == owner.__values[0] ? owner : nil
    }
}

/// A child assigned to a `@HasOne` (nil: the current child is to be removed).
package struct StagedChild {
    package let child: ModelObject?

    package init(child: ModelObject?) { self.child = child }
}

extension ModelObject {
    /// Links a parent to a `@BelongsTo` foreign key at `slot`: the key becomes the
    /// parent's id, or the link is pending until the parent is saved (the key is then
    /// cleared, or kept as read from a document). `nil` unlinks and clears the key.
    package final func _linkParent(_ parent: ModelObject?, slot: Int, clearingKeyWhilePending: Bool = false) {
        if Int(__inverse.slot) == slot { __inverse = InverseLink() }
        guard let parent else {
            __extras?.related.parents[slot] = nil
            _assign(.null, at: slot)
            return
        }
        let id = parent.__values.first ?? .null
        extras.related.parents[slot] = ParentLink(key: id, parent: parent, pending: id.isNull)
        if !id.isNull || clearingKeyWhilePending { _assign(id, at: slot) }
    }
}

extension ModelObject {
    /// Links this record to the owner it was reached through (see ``InverseLink``): the
    /// foreign key at `slot` becomes the owner's id, or the link is pending while the owner
    /// is unsaved (the key is then kept as it is). Replaces an assigned parent at `slot`.
    package final func _linkInverse(_ owner: ModelObject, slot: Int) {
        let id = owner.__values.first ?? .null
        if __extras?.related.parents[slot] != nil { __extras?.related.parents[slot] = nil }
        __inverse = InverseLink(owner: owner, slot: slot, pending: id.isNull)
        if !id.isNull, __values[slot] != id { _assign(id, at: slot) }
    }
}

extension ModelProtocol {
    /// Before a save: links parents that were assigned unsaved and have been saved since.
    package func linkPendingParents() throws {
        if __inverse.pending { try linkPendingOwner() }
        guard let extras = __extras, !extras.related.parents.isEmpty else { return }
        for (slot, link) in extras.related.parents where link.pending {
            guard let parent = link.parent, parent.__isPersisted else {
                throw ModelError(
                    .notPersisted, model: recordSchema.modelName, column: recordSchema.columns[slot].name,
                    message: "the assigned parent has not been saved; save it before this record")
            }
            let id = parent.__values[0]
            extras.related.parents[slot] = ParentLink(key: id, parent: parent, pending: false)
            if __values[slot].isNull { _assign(id, at: slot) }
        }
    }

    /// A pending inverse link: the owner must have been saved by now; its id becomes the
    /// foreign key (unless the key was set meanwhile).
    private func linkPendingOwner() throws {
        let slot = Int(__inverse.slot)
        guard let owner = __inverse.owner else {
            __inverse = InverseLink()
            return
        }
        guard owner.__isPersisted else {
            throw ModelError(
                .notPersisted, model: recordSchema.modelName, column: recordSchema.columns[slot].name,
                message: "the record this one belongs to has not been saved; save it before this record")
        }
        __inverse.pending = false
        if __values[slot].isNull { _assign(owner.__values[0], at: slot) }
    }

    /// Whether `save()` has staged relation writes to run with the record.
    package var hasStagedRelations: Bool { !(__extras?.related.staged.isEmpty ?? true) }

    /// After the record is written (inside the save's transaction): writes each staged
    /// child through its relation, in declaration order. The caller clears them once the
    /// transaction commits.
    package func writeStagedRelations(to store: any PersistenceAdapter) throws {
        guard let staged = __extras?.related.staged, !staged.isEmpty else { return }
        let schema = recordSchema
        for (location, entry) in staged.sorted(by: { $0.key < $1.key }) {
            guard let relation = try schema.relation(at: location), let writer = relation.stagedWriter else {
                throw SchemaError(
                    .invalidRelation, model: schema.modelName, reason: "a record was staged on a relation the schema does not declare")
            }
            try writer.write(entry.child, owner: self, store: store)
        }
    }

    /// After a committed save: the staged children are now the loaded ones.
    package func commitStagedRelations() {
        guard let extras = __extras, !extras.related.staged.isEmpty else { return }
        for (location, entry) in extras.related.staged {
            extras.related.children[location] = entry.child.map { [$0] } ?? []
        }
        extras.related.staged = [:]
    }
}
