extension Query {
    /// Deletes every selected record in one bulk store operation.
    ///
    /// No hooks run, relations are not followed, and one ``ModelChange`` (`.deleteAll`)
    /// is announced. Use `destroy()` per record when hooks matter.
    ///
    /// - Returns: how many records were deleted.
    @discardableResult
    public func deleteAll() throws -> Int {
        try deleteAllSteps().run()
    }

    /// The steps of ``deleteAll()``: the bulk delete, then its one announced change.
    func deleteAllSteps() throws -> StoreSteps<Int> {
        try resolvedByIDSteps().flatMap { query, store in
            .call(.delete(query), on: store) { reply in
                let count = try reply.count(for: query)
                M.announceBulk(.deleteAll, schema: query.schema, store: store, count: count)
                return .done(count)
            }
        }
    }

    /// Sets columns on every selected record in one bulk store operation.
    ///
    /// Values are cast to the columns' types as assignment casts them (a value that does
    /// not cast is a ``CastError``, as with `set(_:to:)`); the id cannot be
    /// set. No hooks or validations run, `updated_at` is not stamped (set it yourself if
    /// you want it), records already in memory are not refreshed, and one ``ModelChange``
    /// (`.updateAll`) is announced.
    ///
    /// ```swift
    /// try Todo.where("done").eq(true).updateAll(["archived": true])
    /// ```
    ///
    /// - Returns: how many records changed.
    @discardableResult
    public func updateAll(_ values: [String: ModelValue]) throws -> Int {
        try updateAllSteps(values).run()
    }

    /// The steps of ``updateAll(_:)-ModelValue``: the bulk update, then its one announced
    /// change naming the columns set.
    func updateAllSteps(_ values: [String: ModelValue]) throws -> StoreSteps<Int> {
        let assignments = try bulkAssignments(values)
        guard !assignments.isEmpty else { return .done(0) }
        return try resolvedByIDSteps().flatMap { query, store in
            .call(.update(query, set: assignments), on: store) { reply in
                let count = try reply.count(for: query)
                M.announceBulk(.updateAll, schema: query.schema, store: store, count: count, slots: assignments.keys.sorted())
                return .done(count)
            }
        }
    }

    /// `values` by column name as checked, cast slot assignments for ``updateAll(_:)-ModelValue``.
    func bulkAssignments(_ values: [String: ModelValue]) throws -> [Int: ModelValue] {
        let resolver = ColumnResolver<M>()
        var assignments: [Int: ModelValue] = [:]
        for (name, value) in values {
            let slot = try resolver.slot(name)
            guard slot != 0 else { throw argument("updateAll cannot change ids") }
            let column = M.schema.columns[slot]
            if value.isNull, !column.isOptional {
                throw QueryError(
                    .invalidValue, model: M.schema.modelName, column: name, value: value,
                    message: "\(name) is not optional")
            }
            assignments[slot] = try M.schema.castForAssignment(value, at: slot)
        }
        return assignments
    }
}
