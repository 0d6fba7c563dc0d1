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
        let id = __baselineID
        try store.deleteStored(id: id, from: schema)
        didDelete(store: store, schema: schema, undoing: before)
        afterDelete()
        return true
    }
}
