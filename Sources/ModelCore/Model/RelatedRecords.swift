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
    package var children = LoadedChildren()
    /// `@HasOne` children assigned since the last save, by relation location; `save()`
    /// writes them through the relation's ``StagedRelationWriter``.
    package var staged: [Int: StagedChild] = [:]
    /// While a key path is resolved to its relation on a prototype: the location of the
    /// relation property the key path read (`-1` until one is read).
    package var probe: Int?

    /// Forgets everything (after `reload()`: the store is the truth again).
    package mutating func removeAll() {
        parents = [:]
        children = LoadedChildren()
        staged = [:]
    }
}

/// A record's loaded children by relation location, the first relation stored inline: most
/// records have children loaded for one relation, and a dictionary for it cost an
/// allocation and two hashes per owner of an eager load (about 1,300 instructions an owner
/// of a has-one, its free included).
package struct LoadedChildren {
    /// The location of the inline relation, nil while none is stored inline.
    private var firstLocation: Int?
    private var first: [ModelObject] = []
    /// Every other relation's children.
    private var others: [Int: [ModelObject]] = [:]

    package init() {}

    /// The children loaded for the relation at `location`, nil when none are; setting nil
    /// forgets them.
    package subscript(location: Int) -> [ModelObject]? {
        get {
            if location == firstLocation { return first }
            return others.isEmpty ? nil : others[location]
        }
        set {
            if location == firstLocation {
                if let newValue {
                    first = newValue
                } else {
                    firstLocation = nil
                    first = []
                }
            } else if firstLocation == nil, let newValue {
                // (It may have been stored in `others` while another relation was inline.)
                if !others.isEmpty { others[location] = nil }
                firstLocation = location
                first = newValue
            } else {
                others[location] = newValue
            }
        }
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

/// The one related record a record links to inline, for the `@BelongsTo` at `slot`:
/// - the owner it was reached through (`owner.children.all()`, eager loading of a
///   has-many, a nested document), held **weakly** — the owner holds its loaded children,
///   so a strong link back would make every eager load a reference cycle — and answering
///   while the foreign key holds the owner's id (or, `pending`, while both are still
///   unsaved and the key is nil);
/// - or a parent loaded for that key (`Query.including(_:)`, `load(_:)`), held
///   **strongly**: nothing else keeps a loaded parent alive.
///
/// Stored inline on the record, so neither costs an allocation per record; a second
/// relation's link lives in ``RelatedRecords/parents``.
@usableFromInline package struct InverseLink {
    /// The owner, held weakly without giving it a side table (see ``WeakRecord``): every
    /// child an eager load links points to it.
    private var ownerLink: WeakRecord?
    /// The owner, while it lives.
    @usableFromInline package var owner: ModelObject? {
        get { ownerLink?.record }
        set { ownerLink = newValue.map(WeakRecord.init) }
    }
    /// A loaded parent (strong; nil for an owner link).
    package var parent: ModelObject?
    package var slot: Int32 = -1
    @usableFromInline package var pending = false

    package init() {}

    /// A link to `parent`, loaded for the foreign key at `slot` (which holds its id).
    package init(parent: ModelObject, slot: Int) {
        self.parent = parent
        self.slot = Int32(truncatingIfNeeded: slot)
    }
}

extension ModelObject {
    /// The owner or loaded parent of the inline link (``InverseLink``), when it answers
    /// for the foreign key `key` at `slot`. Reads the link in place (copying it would copy
    /// its references).
    package final func _linkedRecord(slot: Int, key: ModelValue) -> ModelObject? {
        guard Int(__inverse.slot) == slot else { return nil }
        let target: ModelObject
        if let parent = __inverse.parent {
            target = parent
        } else if let owner = __inverse.owner {
            target = owner
        } else {
            // The owner is gone: drop the link, which kept the owner's memory allocated
            // (see ``WeakRecord``).
            __inverse = InverseLink()
            return nil
        }
        if __inverse.pending { return key.isNull ? target : nil }
        return !key.isNull && key == target.__values[0] ? target : nil
    }

    /// What a `@BelongsTo` property declared at `location` reads: the parent assigned or
    /// loaded for the current foreign key, nil otherwise. A read of the key column as far
    /// as observation and key-path probing are concerned. (Here rather than beside the
    /// relation types: record fields are read without exclusivity checks only in this
    /// module.)
    @usableFromInline package final func _parent<M: ModelProtocol>(location: Int, in model: M.Type) -> ModelObject? {
        let schema = __schema ?? _attachSchema(M.self)
        let slot = schema.slot(for: location)
        if schema.isObservable, ModelObservation.isEnabled { _observationAccess() }
        guard let extras = __extras else {
            return slot > 0 ? _linkedRecord(slot: slot, key: __values[slot]) : nil
        }
        _noteRead(slot)
        guard slot > 0 else { return nil }
        return _loadedParent(slot: slot, key: __values[slot], extras: extras) ?? nil
    }

    /// The parent in memory for the foreign-key value `key` at `slot`: `.some(parent)`
    /// (`.some(nil)`: loaded, and no row has that id) when a link answers for the key —
    /// a ``ParentLink`` first, then the inline link — and nil when none does.
    package final func _loadedParent(slot: Int, key: ModelValue, extras: RecordExtras?) -> ModelObject?? {
        if let link = extras?.related.parents[slot], link.answers(for: key) { return .some(link.parent) }
        return _linkedRecord(slot: slot, key: key).map { .some($0) }
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
        if id.isNull {
            extras.related.parents[slot] = ParentLink(key: id, parent: parent, pending: true)
        } else {
            _rememberLoadedParent(parent, key: id, slot: slot)
        }
        if !id.isNull || clearingKeyWhilePending { _assign(id, at: slot) }
    }
}

extension ModelObject {
    /// Links this record to the owner it was reached through (see ``InverseLink``): the
    /// foreign key at `slot` becomes the owner's id, or the link is pending while the owner
    /// is unsaved (the key is then kept as it is). Replaces an assigned parent at `slot`.
    package final func _linkInverse(_ owner: ModelObject, slot: Int) {
        let id = owner.__values.first ?? .null
        linkOwner(owner, slot: slot, pending: id.isNull)
        if !id.isNull, !ModelValue.row(__values, at: slot, equals: id) { _assign(id, at: slot) }
    }

    /// ``_linkInverse(_:slot:)`` for a child whose foreign key at `slot` already holds
    /// `owner`'s current id, which is not null (the children an eager load grouped by
    /// that key, or a lazy read matched on it): links without reading and comparing the
    /// id again (about 100 instructions a child).
    package final func _linkInverse(toOwnerWhoseIDIsTheKey owner: ModelObject, slot: Int) {
        linkOwner(owner, slot: slot, pending: false)
    }

    private func linkOwner(_ owner: ModelObject, slot: Int, pending: Bool) {
        if __extras?.related.parents[slot] != nil { __extras?.related.parents[slot] = nil }
        keepInlineParent(unlessAt: slot)
        // Field by field: assigning a whole new link makes one weak reference and then
        // assigns it over the old one.
        owner._noteHeldWeakly()
        __inverse.owner = owner
        __inverse.parent = nil
        __inverse.slot = Int32(truncatingIfNeeded: slot)
        __inverse.pending = pending
    }
}

extension ModelObject {
    /// Remembers `parent`, loaded for the foreign-key value `key` at `slot` (nil: no row
    /// has that id): inline when the inline link is free or already for `slot`, else in
    /// ``RelatedRecords/parents``.
    package final func _rememberLoadedParent(_ parent: ModelObject?, key: ModelValue, slot: Int) {
        // (The id compared in place: `__values.first == key` copied both into optionals,
        // about 100 instructions a child of an eager load.)
        if let parent, __inverse.slot < 0 || Int(__inverse.slot) == slot, !key.isNull, ModelValue.row(parent.__values, at: 0, equals: key) {
            if let extras = __extras, extras.related.parents[slot] != nil { extras.related.parents[slot] = nil }
            __inverse = InverseLink(parent: parent, slot: slot)
        } else {
            extras.related.parents[slot] = ParentLink(key: key, parent: parent, pending: false)
        }
    }

    /// Moves an inline loaded parent at another slot than `slot` to
    /// ``RelatedRecords/parents`` (before the inline link is given to `slot`).
    private func keepInlineParent(unlessAt slot: Int) {
        guard let parent = __inverse.parent, Int(__inverse.slot) != slot else { return }
        extras.related.parents[Int(__inverse.slot)] = ParentLink(key: parent.__values[0], parent: parent, pending: false)
    }

    /// Forgets the related records in memory (after `reload()` or a refresh: the store is
    /// the truth again). The owner a record was reached through stays linked.
    package final func forgetRelated() {
        __extras?.related.removeAll()
        if __inverse.parent != nil { __inverse = InverseLink() }
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
        for (writer, child) in try stagedWrites() { try writer.write(child, owner: self, store: store) }
    }

    /// ``writeStagedRelations(to:)`` with each store call awaited (the async save, inside
    /// its async transaction, in the caller's isolation).
    nonisolated(nonsending) package func writeStagedRelations(to store: any PersistenceAdapter) async throws {
        for (writer, child) in try stagedWrites() { try await writer.write(child, owner: self, store: store) }
    }

    /// Each staged child with the writer of its relation, in declaration order.
    private func stagedWrites() throws -> [(writer: any StagedRelationWriter, child: ModelObject?)] {
        guard let staged = __extras?.related.staged, !staged.isEmpty else { return [] }
        let schema = recordSchema
        return try staged.sorted(by: { $0.key < $1.key }).map { location, entry in
            guard let relation = try schema.relation(at: location), let writer = relation.stagedWriter else {
                throw SchemaError(
                    .invalidRelation, model: schema.modelName, reason: "a record was staged on a relation the schema does not declare")
            }
            return (writer, entry.child)
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
