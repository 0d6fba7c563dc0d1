extension ModelProtocol {
    /// Removes the record from its store, without touching related records.
    ///
    /// Runs `beforeDelete` (which may decline) and `afterDelete`. Afterwards the record is
    /// new again (``isNew``) and keeps its values, so it can be saved again.
    ///
    /// - Returns: `false` when `beforeDelete` declined.
    /// - Throws: ``ModelError`` `.notPersisted` for a record never saved,
    ///   `.recordNotFound` when the row is already gone; adapter errors.
    @discardableResult
    public func delete() throws -> Bool {
        let schema = recordSchema
        try schema.validate()
        guard __isPersisted, let store = __home else {
            throw ModelError(.notPersisted, model: schema.modelName, message: "delete() needs a saved record")
        }
        guard try beforeDelete() else { return false }
        let before = state
        let id = __baseline[0]
        guard try store.delete(id: id, from: schema) else {
            throw ModelError(.recordNotFound, model: schema.modelName, id: id, message: "the record is no longer stored")
        }
        __isPersisted = false
        let change = ModelChange(
            action: .delete, schema: schema, modelType: ObjectIdentifier(Self.self), id: id, values: __baseline)
        TransactionContext.record(change, instance: self, adapter: store) { { [weak self] in self?.restore(before) } }
        afterDelete()
        return true
    }

    /// Deletes the record honouring its relations' rules (cascades arrive with relations),
    /// running `beforeDestroy`, the delete hooks, and `afterDestroy`. The whole cascade
    /// is one store transaction.
    ///
    /// - Returns: `false` when `beforeDestroy` or `beforeDelete` declined.
    @discardableResult
    public func destroy() throws -> Bool {
        let schema = recordSchema
        try schema.validate()
        guard __isPersisted, let store = __home else {
            throw ModelError(.notPersisted, model: schema.modelName, message: "destroy() needs a saved record")
        }
        guard try beforeDestroy() else { return false }
        guard try store.transaction({ try delete() }) else { return false }
        afterDestroy()
        return true
    }
}
