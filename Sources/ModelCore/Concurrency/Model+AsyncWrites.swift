/// The async forms of the record writes.
///
/// A record belongs to its caller's isolation (the main actor, a task), so an async write
/// runs in three steps: validation and the before-hooks run on the record in the caller's
/// isolation; only the row — `Sendable` values — goes to the store, on the blocking pool
/// (or inline, see ``BlockingPool/run(on:_:)``); then the record takes its saved state, the
/// change is announced and the after-hooks run, back in the caller's isolation. Same
/// results, errors and hooks as the synchronous forms.
///
/// Cancellation: a task cancelled before the write starts throws `CancellationError` and
/// the record keeps its unsaved state (before-hooks may have run, as when a write fails).
/// A write that has started finishes — committed whole or rolled back whole by the store.
///
/// Do not change a record while its own save is in flight (between the call and its
/// return): the record is saved as it was when the call began.
extension ModelProtocol {
    /// Inserts or updates the record (async; see ``save(to:validate:)``).
    nonisolated(nonsending) public func save(to adapter: (any PersistenceAdapter)? = nil, validate: Bool = true)
        async throws
    {
        switch try await performSaveAsync(adapter, validate: validate) {
        case .done: return
        case .invalid(let error): throw error
        case .declined(let hook):
            throw ModelError(.cancelled, model: recordSchema.modelName, id: __values[0], message: "\(hook)() returned false")
        }
    }

    /// Saves, returning `false` for an invalid record or a declining hook (async; see
    /// ``saveIfValid(to:validate:)``).
    nonisolated(nonsending) public func saveIfValid(to adapter: (any PersistenceAdapter)? = nil, validate: Bool = true)
        async throws -> Bool
    {
        switch try await performSaveAsync(adapter, validate: validate) {
        case .done: return true
        case .declined, .invalid: return false
        }
    }

    /// Makes a record from attributes and saves it (async; see ``create(_:in:)``). The
    /// record is made for the call and handed to the caller.
    @discardableResult
    nonisolated(nonsending) public static func create(
        _ attributes: [String: ModelValue] = [:], in adapter: (any PersistenceAdapter)? = nil
    ) async throws -> Self {
        let record = try Self(attributes)
        try await record.save(to: adapter)
        return record
    }

    /// ``create(_:in:)-(_,_)`` with Swift values (`["name": title, "due": date]`), async.
    @discardableResult
    nonisolated(nonsending) public static func create(
        _ attributes: [String: any ModelValueConvertible], in adapter: (any PersistenceAdapter)? = nil
    ) async throws -> Self {
        try await create(attributes.mapValues(\.modelValue), in: adapter)
    }

    /// Removes the record from its store, without touching related records (async; see
    /// ``delete()``).
    @discardableResult
    nonisolated(nonsending) public func delete() async throws -> Bool {
        try Task.checkCancellation()
        let schema = recordSchema
        try schema.validate()
        guard __isPersisted, let store = __home else {
            throw ModelError(.notPersisted, model: schema.modelName, message: "delete() needs a saved record")
        }
        let isolation = #isolation
        guard try beforeDelete() else { return false }
        let before = state
        let id = __baselineID
        guard try await StoreCall.deleteID(id, from: schema).reply(from: store).deleted(from: schema) else {
            throw ModelError(.recordNotFound, model: schema.modelName, id: id, message: "the record is no longer stored")
        }
        WriteIsolation.declaring(isolation) { didDelete(store: store, schema: schema, undoing: before) }
        afterDelete()
        return true
    }

    /// After the store deleted the record: it is new again, and the change is recorded.
    package func didDelete(store: any PersistenceAdapter, schema: ModelSchema, undoing before: RecordState) {
        __isPersisted = false
        TransactionContext.record(
            ModelChange(
                action: .delete, schema: schema, modelType: ObjectIdentifier(Self.self), id: __baselineID, values: __baseline),
            schema: schema, instance: self, adapter: store, undoing: self
        ) { RecordUndo(self, before: before, store: store, isolation: $0) }
    }

    /// The async save: hooks here, the row's write on the pool, the saved state here.
    nonisolated(nonsending) private func performSaveAsync(_ adapter: (any PersistenceAdapter)?, validate: Bool)
        async throws -> WriteOutcome
    {
        try Task.checkCancellation()
        let schema = recordSchema
        try schema.validate()
        let store = try store(adapter)
        let isolation = #isolation
        if let inline = store as? any InlineRunningAdapter,
            let outcome = try inline.runInlineIfFree({ try performSave(store, validate: validate) })
        {
            return outcome  // an in-memory store that is free now: the whole save, at once
        }
        let staged = hasStagedRelations
        if TransactionContext.runsHere(on: store) || (staged && TransactionContext.isOpen(on: store)) {
            // Inside a transaction running here (a synchronous one, or an async one on its
            // executor) the store may block. A save with staged relations inside an async
            // transaction, called from another isolation, needs a savepoint, which only
            // the synchronous transaction opens. Both run the synchronous save here (see
            // Docs/Concurrency.md).
            return try performSave(store, validate: validate)
        }
        let isNew = !__isPersisted
        let before: RecordState
        let validated: Bool
        let preparation: SavePreparation
        try linkPendingParents()
        if validate, schema.validatesOnSave, let validating = self as? any SaveValidating {
            preparation = try afterValidation(
                await validating.validateForSaveAsync(isNew: isNew, store: store), isNew: isNew)
        } else {
            preparation = try runBeforeHooks(isNew: isNew, validated: false)
        }
        switch preparation {
        case .stop(let outcome): return outcome
        case .proceed(let state, let didValidate): (before, validated) = (state, didValidate)
        }
        do {
            if staged {
                // Staged relation writes (`user.profile = p`) commit or roll back with the
                // record: an async transaction whose body comes back here to write them.
                let job = StagedSave(record: self, isNew: isNew, schema: schema, before: before)
                try await store.transaction { _ in try await job.run(store: store, in: isolation) }
                commitStagedRelations()
            } else {
                try await writeAsync(isNew: isNew, schema: schema, store: store, undoing: before, isolation: isolation)
            }
        } catch {
            restore(before)
            throw error
        }
        finishSave(isNew: isNew, validated: validated)
        return .done
    }

    /// Stages the row, writes it with the store's answer awaited, and completes the record
    /// in the caller's isolation.
    nonisolated(nonsending) fileprivate func writeAsync(
        isNew: Bool, schema: ModelSchema, store: any PersistenceAdapter, undoing before: RecordState,
        isolation: (any Actor)?
    ) async throws {
        guard let changed = try stageWrite(isNew: isNew, schema: schema, stamps: true, store: store) else { return }
        let call: StoreCall = isNew ? .insert(__values, into: schema) : .updateRow(__values, changedColumns: changed, in: schema)
        let written = try await call.reply(from: store).written(in: schema)
        WriteIsolation.declaring(isolation) {
            completeWrite(written, isNew: isNew, changed: changed, store: store, schema: schema, undoing: before)
        }
    }
}

/// The store work of an async save with staged relations, sent into its async transaction:
/// the record's row, then the staged children, each write awaited.
///
/// `@unchecked Sendable`: the record is only touched in the isolation of the save's caller
/// (``run(store:in:)`` is isolated to it), while that caller awaits the transaction; the
/// other fields are values.
private struct StagedSave<Record: ModelProtocol>: @unchecked Sendable {
    let record: Record
    let isNew: Bool
    let schema: ModelSchema
    let before: RecordState

    /// Runs in the caller's isolation, inside the transaction: its store calls join it.
    func run(store: any PersistenceAdapter, in isolation: isolated (any Actor)?) async throws {
        try await record.writeAsync(isNew: isNew, schema: schema, store: store, undoing: before, isolation: isolation)
        try await record.writeStagedRelations(to: store)
    }
}


/// The async forms of the writes by id and of the bulk delete: the same steps as the
/// synchronous forms (see ``StoreSteps``), run by the async driver; changes are announced
/// in the caller.
extension ModelProtocol {
    /// Deletes every record in one bulk operation (async; see ``deleteAll(in:)``).
    @discardableResult
    nonisolated(nonsending) public static func deleteAll(in adapter: (any PersistenceAdapter)? = nil) async throws -> Int {
        try await deleteAllSteps(adapter).run()
    }

    /// Deletes the row with this id without loading it (async; see ``delete(id:in:)``).
    @discardableResult
    nonisolated(nonsending) public static func delete(id: IDValue, in adapter: (any PersistenceAdapter)? = nil)
        async throws -> Bool
    {
        try await deleteSteps(id: id.modelValue, adapter).run()
    }

    /// Sets columns of the row with this id without loading it (async; see
    /// ``update(id:set:in:)``).
    @discardableResult
    nonisolated(nonsending) public static func update(
        id: IDValue, set values: [String: any ModelValueConvertible], in adapter: (any PersistenceAdapter)? = nil
    ) async throws -> Bool {
        try await updateSteps(id: id.modelValue, set: values.mapValues(\.modelValue), adapter).run()
    }

    /// Loads the record with this id, lets `change` modify it (in the caller's isolation)
    /// and saves it (async; see ``update(id:in:_:)``).
    @discardableResult
    nonisolated(nonsending) public static func update(
        id: IDValue, in adapter: (any PersistenceAdapter)? = nil, _ change: (Self) throws -> Void
    ) async throws -> Self? {
        guard let record = try await find(id, in: adapter) else { return nil }
        try change(record)
        try await record.save(to: adapter)
        return record
    }
}
