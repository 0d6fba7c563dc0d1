/// Writes by id, without loading the record first.
///
/// ```swift
/// try Person.delete(id: 5)                                  // one DELETE, no hooks
/// try Person.update(id: 5, set: ["score": 10, "city": city]) // one UPDATE, no hooks
/// try Person.destroy(id: 5)                                 // loads, hooks and rules run
/// try Person.update(id: 5) { $0.score += 1 }                // loads, validates, hooks run
/// ```
///
/// The first two are single statements: they skip hooks, validations, `updated_at`
/// stamping and relation rules (on SQLite, foreign-key actions still apply, as for
/// `delete()`), and announce one change with the id. The closure forms load the record
/// and go through `destroy()`/`save()`, so everything per-record runs.
extension ModelProtocol {
    /// Deletes the row with this id in one store call, without loading it: no hooks, no
    /// relation rules. Announces a `.delete` change (its `values` are empty).
    ///
    /// - Returns: whether a row was deleted.
    @discardableResult
    public static func delete(id: IDValue, in adapter: (any PersistenceAdapter)? = nil) throws -> Bool {
        try deleteSteps(id: id.modelValue, adapter).run()
    }

    /// The steps of ``delete(id:in:)`` (for both drivers).
    package static func deleteSteps(id key: ModelValue, _ adapter: (any PersistenceAdapter)?) throws -> StoreSteps<Bool> {
        let (schema, store) = try context(adapter)
        return .call(.deleteID(key, from: schema), on: store) { reply in
            guard try reply.deleted(from: schema) else { return .done(false) }
            announceByID(.delete, key, schema: schema, store: store)
            return .done(true)
        }
    }

    /// Sets columns of the row with this id in one store call, without loading it. Values
    /// are cast as assignments cast them (`Docs/Casting.md`); the id cannot be set. No
    /// hooks or validations run and `updated_at` is not stamped. Announces an `.update`
    /// change naming the columns (its `values` are empty).
    ///
    /// - Returns: whether a row with this id exists (and was written).
    /// - Throws: ``ModelError`` `.unknownColumn`, ``CastError``, store errors; nothing is
    ///   written then.
    @discardableResult
    public static func update(id: IDValue, set values: [String: any ModelValueConvertible], in adapter: (any PersistenceAdapter)? = nil)
        throws -> Bool
    {
        try updateSteps(id: id.modelValue, set: values.mapValues(\.modelValue), adapter).run()
    }

    /// The steps of ``update(id:set:in:)``: the update, and a count when it changed
    /// nothing (the row may hold those values already).
    package static func updateSteps(id key: ModelValue, set values: [String: ModelValue], _ adapter: (any PersistenceAdapter)?)
        throws -> StoreSteps<Bool>
    {
        let (schema, store) = try context(adapter)
        let assignments = try schema.assignments(values, model: schema.modelName)
        let query = StoreQuery(schema: schema, predicate: .compare(column: 0, .equal, key))
        guard !assignments.isEmpty else { return .count(query, on: store) { .done($0 > 0) } }
        let announced: (Int) throws -> StoreSteps<Bool> = { _ in
            announceByID(.update, key, schema: schema, store: store, slots: assignments.keys.sorted())
            return .done(true)
        }
        return .call(.update(query, set: assignments), on: store) { reply in
            let changed = try reply.count(for: query)
            if changed > 0 { return try announced(changed) }
            return .count(query, on: store) { found in found > 0 ? try announced(found) : .done(false) }
        }
    }

    /// Announces a write by id (its `values` are empty; `slots`: the columns set).
    package static func announceByID(
        _ action: ModelChange.Action, _ key: ModelValue, schema: ModelSchema, store: any PersistenceAdapter, slots: [Int]? = nil
    ) {
        let change =
            slots.map {
                ModelChange(
                    action: action, schema: schema, modelType: ObjectIdentifier(Self.self), id: key, values: [], changedSlots: $0)
            } ?? ModelChange(action: action, schema: schema, modelType: ObjectIdentifier(Self.self), id: key, values: [])
        TransactionContext.record(change, schema: schema, instance: nil, adapter: store)
    }

    /// Loads the record with this id, lets `change` modify it, and saves it: validations,
    /// hooks and timestamps run as for ``save(to:validate:)``.
    ///
    /// - Returns: the saved record, or nil when no record has this id.
    /// - Throws: what `change` and ``save(to:validate:)`` throw (an invalid record throws
    ///   its validation error and nothing is written).
    @discardableResult
    public static func update(id: IDValue, in adapter: (any PersistenceAdapter)? = nil, _ change: (Self) throws -> Void)
        throws -> Self?
    {
        guard let record = try find(id, in: adapter) else { return nil }
        try change(record)
        try record.save()
        return record
    }
}

extension ModelSchema {
    /// `values` by column name as slot assignments for ``ModelProtocol/update(id:set:in:)``:
    /// cast, never the id.
    package func assignments(_ values: [String: any ModelValueConvertible], model: String) throws -> [Int: ModelValue] {
        var assignments: [Int: ModelValue] = [:]
        for (name, value) in values {
            guard let slot = index(ofColumn: name), slot > 0 else {
                throw ModelError(
                    .unknownColumn, model: modelName,
                    message: name == columns[0].name ? "update(id:set:) cannot change the id" : "no column named \"\(name)\"")
            }
            assignments[slot] = try castForAssignment(value.modelValue, at: slot)
        }
        return assignments
    }

    /// `value` cast for the column at `slot` as assigning it casts it (a nil for a
    /// non-optional column with a declared default becomes that default).
    package func castForAssignment(_ value: ModelValue, at slot: Int) throws(CastError) -> ModelValue {
        let column = columns[slot]
        if value.isNull, !column.isOptional, case .literal(let fallback) = column.defaultValue { return fallback }
        let cast: ModelValue
        do {
            cast = try Caster.cast(value, to: column.castTarget)
        } catch var error {
            error.model = modelName
            error.column = column.name
            throw error
        }
        guard column.accepts(cast) else {
            throw CastError(
                model: modelName, column: column.name, value: value, target: column.castTarget,
                reason: "out of range for the property's Swift type")
        }
        return cast
    }
}
