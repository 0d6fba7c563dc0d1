import Foundation

/// Whether a save goes on to write after its validation and before-hooks.
package enum SavePreparation {
    /// Write; `before` is the state a failed write restores.
    case proceed(RecordState, validated: Bool)
    /// Stop with this outcome (invalid, or a hook declined); nothing was written.
    case stop(WriteOutcome)
}

/// The outcome of a write that hooks may decline.
package enum WriteOutcome {
    case done
    case declined(hook: String)
    case invalid(any Error & Sendable)
}

extension ModelProtocol {
    /// Inserts the record if it is new, otherwise writes its changed columns — or throws.
    ///
    /// For a validating model (ModelValidation's `Validatable`), first runs
    /// `beforeValidation`, the validation rules and `afterValidation`; an invalid record is
    /// not written and the call **throws** the validation error (ModelValidation's
    /// `RecordInvalid`, carrying the errors, which are also on the record). Pass
    /// `validate: false` to skip validation (hooks included). For form-style code that
    /// wants a `Bool`, use ``saveIfValid(to:validate:)``.
    ///
    /// Then runs `beforeSave` then `beforeCreate`/`beforeUpdate` (either can decline by
    /// returning `false` — which throws ``ModelError`` `.cancelled` — or throw), stamps
    /// `created_at` (when nil) and `updated_at`, gives the record an id (adapter-assigned
    /// `Int64`, generated `UUID`), writes, then runs `afterCreate`/`afterUpdate` and
    /// `afterSave` and announces the change.
    ///
    /// If anything fails, the store is untouched and the record keeps its state (new,
    /// dirty, same values); nothing is announced.
    ///
    /// ```swift
    /// let chore = Chore()
    /// chore.name = "walk the dog"
    /// try chore.save()            // chore.id is now set; an invalid chore throws
    /// ```
    ///
    /// - Parameters:
    ///   - adapter: the store to use for this call (see ``ModelStore``).
    ///   - validate: `false` skips validation.
    /// - Throws: the validation error for an invalid record, ``ModelError`` `.cancelled`
    ///   when a before-hook declines, ``CastError`` for a value no adapter stores,
    ///   ``SchemaError``, ``StoreError`` and errors thrown by hooks.
    public func save(to adapter: (any PersistenceAdapter)? = nil, validate: Bool = true) throws {
        try save(adapter, validate: validate, stampsUpdatedAt: true)
    }

    /// Saves like ``save(to:validate:)``, but an invalid record or a declining before-hook
    /// returns `false` instead of throwing (the errors are on the record): for form-style
    /// code. Store, schema and hook errors still throw.
    ///
    /// ```swift
    /// if try !user.saveIfValid() { show(user.errors.fullMessages) }
    /// ```
    ///
    /// - Returns: `true` when written; `false` when invalid or declined.
    public func saveIfValid(to adapter: (any PersistenceAdapter)? = nil, validate: Bool = true) throws -> Bool {
        switch try performSave(adapter, validate: validate) {
        case .done: return true
        case .declined, .invalid: return false
        }
    }

    /// The old name of ``save(to:validate:)``, which now throws on its own.
    @available(*, deprecated, renamed: "save(to:validate:)")
    public func saveOrThrow(to adapter: (any PersistenceAdapter)? = nil, validate: Bool = true) throws {
        try save(adapter, validate: validate, stampsUpdatedAt: true)
    }

    /// ``save(to:validate:)``; `stampsUpdatedAt: false` keeps a caller-set `updated_at`
    /// (imports).
    package func save(_ adapter: (any PersistenceAdapter)?, validate: Bool = true, stampsUpdatedAt: Bool) throws {
        switch try performSave(adapter, validate: validate, stampsUpdatedAt: stampsUpdatedAt) {
        case .done: return
        case .invalid(let error): throw error
        case .declined(let hook):
            throw ModelError(.cancelled, model: recordSchema.modelName, id: __values[0], message: "\(hook)() returned false")
        }
    }

    package func store(_ explicit: (any PersistenceAdapter)?) throws -> any PersistenceAdapter {
        if let explicit { return explicit }
        if let home = __home { return home }
        return try ModelStore.resolve(ObjectIdentifier(Self.self), modelName: recordSchema.modelName)
    }

    /// `stampsUpdatedAt: false` keeps an `updated_at` value the caller set (imports).
    package func performSave(
        _ adapter: (any PersistenceAdapter)?, validate: Bool = true, stampsUpdatedAt: Bool = true
    ) throws -> WriteOutcome {
        let schema = recordSchema
        try schema.validate()
        let store = try store(adapter)
        let isNew = !__isPersisted
        var before: RecordState
        let validated: Bool
        switch try prepareSave(isNew: isNew, store: store, validate: validate) {
        case .stop(let outcome): return outcome
        case .proceed(let state, let didValidate): (before, validated) = (state, didValidate)
        }
        do {
            if hasStagedRelations {
                // Staged relation writes (`user.profile = p`) commit or roll back with the record.
                try store.transaction {
                    try write(isNew: isNew, store: store, schema: schema, stamps: stampsUpdatedAt, undoing: &before, handsOverRow: false)
                    try writeStagedRelations(to: store)
                }
                commitStagedRelations()
            } else {
                try write(isNew: isNew, store: store, schema: schema, stamps: stampsUpdatedAt, undoing: &before, handsOverRow: true)
            }
        } catch {
            restore(before)
            throw error
        }
        finishSave(isNew: isNew, validated: validated)
        return .done
    }

    /// The part of a save before the write: pending parent links, validation (with its
    /// hooks) and the before-hooks. A declining before-hook leaves the record as it was.
    package func prepareSave(isNew: Bool, store: any PersistenceAdapter, validate: Bool) throws -> SavePreparation {
        try linkPendingParents()
        guard validate, recordSchema.validatesOnSave, let validating = self as? any SaveValidating else {
            return try runBeforeHooks(isNew: isNew, validated: false)
        }
        // Changes made by validation hooks (normalising input) stay, as in Rails.
        return try afterValidation(validating.validateForSave(isNew: isNew, store: store), isNew: isNew)
    }

    /// Goes on from a validation's outcome: stop, or run the before-hooks.
    package func afterValidation(_ result: SaveValidationResult, isNew: Bool) throws -> SavePreparation {
        switch result {
        case .valid: return try runBeforeHooks(isNew: isNew, validated: true)
        case .declined(let hook): return .stop(.declined(hook: hook))
        case .invalid(let error): return .stop(.invalid(error))
        }
    }

    /// `beforeSave`, then `beforeCreate` or `beforeUpdate`; a declining or throwing hook
    /// leaves the record as it was.
    package func runBeforeHooks(isNew: Bool, validated: Bool) throws -> SavePreparation {
        let before = state
        do {
            guard try beforeSave() else { restore(before); return .stop(.declined(hook: "beforeSave")) }
            if isNew {
                guard try beforeCreate() else { restore(before); return .stop(.declined(hook: "beforeCreate")) }
            } else {
                guard try beforeUpdate() else { restore(before); return .stop(.declined(hook: "beforeUpdate")) }
            }
        } catch {
            restore(before)
            throw error
        }
        return .proceed(before, validated: validated)
    }

    /// The part of a save after a successful write: the after-hooks.
    package func finishSave(isNew: Bool, validated: Bool) {
        if validated, let validating = self as? any SaveValidating { validating.validatedSaveDidFinish() }
        if isNew { afterCreate() } else { afterUpdate() }
        afterSave()
    }

    /// Stages and writes the row. `handsOverRow`: a new record that nothing observes hands
    /// its own row to the store (``PersistenceAdapter/insertSettingID(_:into:)``), which
    /// sets the id in place; `before` then stops holding that row (it only needs the id put
    /// back), so the row is not copied. Only when nothing but this write can fail before
    /// `before` is used (no staged relations).
    private func write(
        isNew: Bool, store: any PersistenceAdapter, schema: ModelSchema, stamps: Bool, undoing before: inout RecordState,
        handsOverRow: Bool
    ) throws {
        guard let changed = try stageWrite(isNew: isNew, schema: schema, stamps: stamps, store: store) else { return }
        let written: StoreWrite
        if isNew, handsOverRow, !isObserved {
            let handedID = __values[0]
            before.releaseValues(sharing: __values, handedID: handedID)
            if let stored = try store.insertSettingID(&__values, into: schema) {
                // The store changed more than the id: keep the row as handed to restore.
                before.keepValues(__values, handedID: handedID)
                written = StoreWrite(id: __values[0], stored: stored)
            } else {
                written = StoreWrite(id: nil, stored: nil)
            }
        } else if isNew {
            let (id, stored) = try store.insertReturningStored(__values, into: schema)
            written = StoreWrite(id: id, stored: stored)
        } else {
            written = StoreWrite(id: nil, stored: try store.updateReturningStored(__values, changedColumns: changed, in: schema))
        }
        completeWrite(written, isNew: isNew, changed: changed, store: store, schema: schema, undoing: before)
    }

    /// After the store wrote the row (sync or async): the record takes the id the store
    /// assigned and the values it stored, and the change is recorded.
    package func completeWrite(
        _ written: StoreWrite, isNew: Bool, changed: [Int], store: any PersistenceAdapter, schema: ModelSchema,
        undoing before: RecordState
    ) {
        if let stored = written.stored, stored.count == __values.count, !isObserved {
            // Nobody to tell of the change (observers, bindings, a context): the record
            // shares the stored row as it is instead of copying its own to take the id.
            // (The baseline, which becomes this row below, stops depending on the values.)
            if __baselinePatch != nil { __baseline = stored }
            __values = stored
        } else {
            if isNew, let id = written.id { _assign(id, at: 0) }
            // The values a store set on write (a server's `url`, `updated_at`, a normalised
            // field): the record matches what is stored without another read.
            if let stored = written.stored, stored.count == __values.count {
                for k in stored.indices where stored[k] != __values[k] { _assign(stored[k], at: k) }
            }
        }
        if isNew, ProvisionalIdentities.isActive {
            ProvisionalIdentities.noteInsert(self, id: __values[0], schema: schema, store: store)
        }
        didWrite(__values, isNew: isNew, changed: changed, store: store, schema: schema, undoing: before)
    }

    /// Stamps timestamps, gives a new record its generated id and checks a stored one's:
    /// the row in ``ModelObject/__values`` is then the one to write. Returns the changed
    /// slots of an update (empty for an insert), or nil when an update has nothing to write.
    package func stageWrite(isNew: Bool, schema: ModelSchema, stamps: Bool, store: any PersistenceAdapter) throws -> [Int]? {
        if isNew {
            stampFieldTimestamps(schema, isNew: true, store: store)
            if schema.createdAtIndex != nil || schema.updatedAtIndex != nil {
                let now = ModelClock.now()
                if let k = schema.createdAtIndex, __values[k].isNull { _assign(.date(store.storedDate(now, column: k, of: schema)), at: k) }
                if let k = schema.updatedAtIndex, stamps || __values[k].isNull {
                    _assign(.date(store.storedDate(now, column: k, of: schema)), at: k)
                }
            }
            if __values[0].isNull {
                switch schema.idGeneration {
                case .autoIncrement: break
                case .uuid: _assign(.uuid(UUID()), at: 0)
                case .provided:
                    if store.assignsIDs(for: schema) { break }  // the insert's answer carries it
                    throw ModelError(
                        .missingID, model: schema.modelName,
                        message: "\(schema.modelName) uses \(IDValue.self) ids, which the caller must set before the first save")
                }
            }
            return []
        }
        let id = __baselineID
        guard __values[0] == id else {
            throw ModelError(
                .idChanged, model: schema.modelName, id: id,
                message: "the id of a stored record cannot change (was \(id), now \(__values[0]))")
        }
        stampFieldTimestamps(schema, isNew: false, store: store)
        // The first changed slot alone is kept as a number: an update of one column takes
        // its list from the schema (``ModelSchema/lonelyChanges``) instead of making one.
        var first = 0
        var changed: [Int] = []
        if let patch = __baselinePatch {
            // One column changed since the save or load (the rest is the baseline).
            if patch.slot > 0, __values[patch.slot] != patch.old { first = patch.slot }
        } else {
            for k in 1..<__values.count where __values[k] != __baselineRow[k] {
                if first == 0 {
                    first = k
                } else {
                    if changed.isEmpty { changed.append(first) }
                    changed.append(k)
                }
            }
        }
        guard first != 0 else { return nil }
        let stamped = stamps ? schema.updatedAtIndex : nil
        if let k = stamped { _assign(.date(store.storedDate(ModelClock.now(), column: k, of: schema)), at: k) }
        if changed.isEmpty {
            // One column: with the stamp after it when stamped (the schema's list), else alone.
            let lonely = schema.lonelyChanges
            if first < lonely.count, stamped != nil || schema.updatedAtIndex == nil || first == schema.updatedAtIndex {
                return lonely[first]
            }
            return [first]
        }
        if let k = stamped, !changed.contains(k) { changed.append(k) }
        return changed
    }

    /// After the store wrote `written` (the row as sent, with the stored id): the record is
    /// saved as that row, and the change is recorded (announced now, or when the open
    /// transaction commits; `before` is what a rollback restores).
    package func didWrite(
        _ written: [ModelValue], isNew: Bool, changed: [Int], store: any PersistenceAdapter, schema: ModelSchema,
        undoing before: RecordState
    ) {
        if isNew, __values[0] != written[0] { _assign(written[0], at: 0) }
        __baseline = written
        if schema.tracksFieldTimestamps { __extras?.setSlots = [] }
        if isNew { __isPersisted = true }
        let updated = !isNew && __home === store
        __home = store
        __extras?.lastValid = nil
        if updated, __membership?.membersNeedNoWordOfUpdates == true {
            // Written by its registry's own save, which keeps the record as it is.
        } else if let registry = __membership?.registry ?? (schema.joinsContexts ? RegistryScope.current : nil) {
            registry.didSave(self, schema: schema, store: store, updated: updated)
        }
        TransactionContext.record(
            ModelChange(
                action: isNew ? .insert : .update, schema: schema, modelType: ObjectIdentifier(Self.self), id: written[0],
                values: written, changedSlots: changed),
            schema: schema, instance: self, adapter: store, undoing: self
        ) { RecordUndo(self, before: before, store: store, isolation: $0) }
    }
}
