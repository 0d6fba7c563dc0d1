/// A parent remembered by a child's `@BelongsTo`: loaded for a foreign-key value, or
/// assigned before it had an id.
package struct ParentLink {
    /// The foreign-key value the parent was loaded for (or `.null` while pending).
    let key: ModelValue
    /// The parent, or nil when no parent has that id.
    let parent: ModelObject?
    /// Assigned while unsaved: link it when the child is saved.
    let pending: Bool

    package init(key: ModelValue, parent: ModelObject?, pending: Bool) {
        self.key = key
        self.parent = parent
        self.pending = pending
    }
}

extension ModelProtocol {
    /// The parent behind a `@BelongsTo` property, loaded from the store; errors propagate
    /// (the property itself answers nil on failure).
    ///
    /// ```swift
    /// let task = try assignee.parent(\.task)
    /// ```
    public func parent<P: ModelProtocol>(_ keyPath: KeyPath<Self, P?>) throws -> P? {
        let slot = try slot(of: keyPath)
        let key = P.IDValue?(modelValue: __values[slot]) ?? nil
        return try _loadParent(slot: slot, key: key, as: P.self)
    }

    package func _loadParent<P: ModelProtocol>(slot: Int, key: P.IDValue?, as type: P.Type) throws -> P? {
        let value = key.modelValue
        if let link = __extras?.parents[slot] {
            if link.pending, value.isNull { return link.parent as? P }
            if link.key == value, !value.isNull { return link.parent as? P }
        }
        guard let key else { return nil }
        let parent = try P.find(key, in: __home)
        extras.parents[slot] = ParentLink(key: value, parent: parent, pending: false)
        return parent
    }

    package func _setParent<P: ModelProtocol>(_ parent: P?, slot: Int) {
        _ = parent?.recordSchema
        _linkParent(parent, slot: slot, clearingKeyWhilePending: true)
    }

    /// Before a save: links parents that were assigned unsaved and have been saved since.
    package func linkPendingParents() throws {
        guard let extras = __extras, !extras.parents.isEmpty else { return }
        for (slot, link) in extras.parents where link.pending {
            guard let parent = link.parent, parent.__isPersisted else {
                throw ModelError(
                    .notPersisted, model: recordSchema.modelName, column: recordSchema.columns[slot].name,
                    message: "the assigned parent has not been saved; save it before this record")
            }
            let id = parent.__values[0]
            extras.parents[slot] = ParentLink(key: id, parent: parent, pending: false)
            if __values[slot].isNull { _assign(id, at: slot) }
        }
    }
}

extension ModelObject {
    /// Links a parent to a `@BelongsTo` foreign key at `slot`: the key becomes the
    /// parent's id, or the link is pending until the parent is saved (the key is then
    /// cleared, or kept as read from a document). `nil` unlinks and clears the key.
    package final func _linkParent(_ parent: ModelObject?, slot: Int, clearingKeyWhilePending: Bool = false) {
        guard let parent else {
            __extras?.parents[slot] = nil
            _assign(.null, at: slot)
            return
        }
        let id = parent.__values.first ?? .null
        extras.parents[slot] = ParentLink(key: id, parent: parent, pending: id.isNull)
        if !id.isNull || clearingKeyWhilePending { _assign(id, at: slot) }
    }
}
