/// A model with validations: declare them in ``validations(_:)`` and every `save()`
/// checks them first.
///
/// ```swift
/// final class User: Model, Validatable {
///     @Column var name = ""
///     @Column var email: String?
///     init() {}
///
///     static func validations(_ v: inout Validations<User>) {
///         v.add(\.name, .presence, .length(2...))
///         v.add(\.email, .email, .uniqueness())
///     }
/// }
///
/// let user = User()
/// try user.save()                 // false: nothing written
/// user.errors.fullMessages        // ["name can't be blank"]
/// try user.save()          // throws RecordInvalid
/// try user.save(validate: false)  // skips validation
/// ```
public protocol Validatable: SaveValidating {
    /// Declares the model's rules; called once per type, on first use.
    static func validations(_ rules: inout Validations<Self>)
}

extension Validatable {
    /// Runs `beforeValidation`, the rules for the save's context, and `afterValidation`
    /// (called by `save()`; you rarely call it yourself).
    public func validateForSave(isNew: Bool, store: any PersistenceAdapter) throws -> SaveValidationResult {
        try saveValidationSteps(isNew: isNew, store: store).run()
    }

    /// The steps of a save's validation, for both drivers: `beforeValidation`, the counts
    /// the uniqueness rules ask for the record's values, then every rule once with those
    /// answers, and `afterValidation`.
    func saveValidationSteps(isNew: Bool, store: any PersistenceAdapter) throws -> StoreSteps<SaveValidationResult> {
        guard try beforeValidation() else { return .done(.declined(hook: "beforeValidation")) }
        let context: ValidationContext = isNew ? .create : .update
        let queries = try ValidationPlans.plan(for: Self.self).storeQueries(self, values: _currentValues, context: context)
        return try queries.steps { query in .count(query, on: store) { .done($0) } }.map { answers in
            let errors = try self.runValidations(in: context) { query in
                // The rules ask exactly the queries planned from the same values.
                guard let k = queries.firstIndex(of: query) else {
                    throw StoreError(
                        .invalidRequest, table: query.schema.tableName,
                        message: "a uniqueness rule asked a query its plan did not name")
                }
                return answers[k]
            }
            self.afterValidation()
            if errors.isEmpty { return .valid }
            return .invalid(RecordInvalid(model: self.recordSchema.modelName, id: self._value(at: 0), errors: errors))
        }
    }

    /// Notes that the values just saved (with their new id and timestamps) are the ones
    /// that passed validation.
    public func validatedSaveDidFinish() {
        guard let memo = _extrasIfAny?.validationMemo as? ValidationMemo, memo.errors.isEmpty else { return }
        extras.validationMemo = ValidationMemo(values: _currentValues, errors: memo.errors)
    }

    /// Validates the record as it stands and returns the errors (empty when valid); also
    /// kept in ``errors`` and reflected in ``validationState``.
    ///
    /// Runs `beforeValidation` and `afterValidation` as a save would. Uniqueness rules query
    /// the record's store (resolved as `save()` does, or `store`).
    ///
    /// - Parameters:
    ///   - context: which rules apply; defaults to `.create` for a new record and `.update`
    ///     for a stored one.
    ///   - store: the store uniqueness rules query.
    /// - Throws: ``ValidationDefinitionError`` for malformed rules; ``ModelError``
    ///   `.cancelled` when `beforeValidation` declines; store errors.
    @discardableResult
    public func validate(in context: ValidationContext? = nil, store: (any PersistenceAdapter)? = nil) throws
        -> ValidationErrors
    {
        guard try beforeValidation() else {
            throw ModelError(.cancelled, model: recordSchema.modelName, id: _value(at: 0), message: "beforeValidation() returned false")
        }
        let errors = try runValidations(in: context ?? (isNew ? .create : .update)) { try self.store(store) }
        afterValidation()
        return errors
    }

    /// Whether the record passes its validations now (runs ``validate(in:store:)``).
    public var isValid: Bool {
        get throws { try validate().isEmpty }
    }

    /// The errors found by the last validation (empty before the first).
    public var errors: ValidationErrors {
        (_extrasIfAny?.validationMemo as? ValidationMemo)?.errors ?? ValidationErrors()
    }

    /// Empty, dirty, valid or invalid; see ``ValidationState``.
    public var validationState: ValidationState {
        _ = recordSchema
        guard let memo = _extrasIfAny?.validationMemo as? ValidationMemo else { return isDirty ? .dirty : .empty }
        if memo.values == _currentValues { return memo.errors.isEmpty ? .valid : .invalid(memo.errors) }
        if let valid = _extrasIfAny?.lastValid, valid == _currentValues { return .valid }  // after revert()
        return .dirty
    }

    /// Checks a candidate value for one column without assigning it: the value is cast as
    /// an assignment would be, then that column's rules run (record-level checks do not).
    /// The record, its ``errors`` and its state are unchanged.
    ///
    /// ```swift
    /// try user.validate(value: "A", for: "name").messages(for: "name")
    /// // ["is too short (minimum is 2 characters)"]
    /// ```
    ///
    /// - Throws: ``ModelError`` `.unknownColumn`; ``CastError`` when the value cannot be
    ///   cast to the column's type; as ``validate(in:store:)``.
    public func validate(
        value: ModelValue, for column: String, in context: ValidationContext? = nil,
        store: (any PersistenceAdapter)? = nil
    ) throws -> ValidationErrors {
        let slot = try slot(named: column)
        return try validateCandidate(castForColumn(value, at: slot), at: slot, context: context, store: store)
    }

    /// Checks a candidate value for the column behind `keyPath` without assigning it.
    ///
    /// ```swift
    /// try user.validate("A", for: \.name).isEmpty     // false
    /// ```
    public func validate<V: ColumnValue>(
        _ value: V, for keyPath: KeyPath<Self, V>, in context: ValidationContext? = nil,
        store: (any PersistenceAdapter)? = nil
    ) throws -> ValidationErrors {
        let slot = try slot(of: keyPath)
        return try validateCandidate(castForColumn(value.modelValue, at: slot), at: slot, context: context, store: store)
    }

    /// Builds the model's validations now, throwing if any rule is malformed (otherwise the
    /// first validation reports it). Useful in a test per model.
    public static func checkValidations() throws(ValidationDefinitionError) {
        _ = try ValidationPlans.plan(for: Self.self)
    }

    private func validateCandidate(
        _ value: ModelValue, at slot: Int, context: ValidationContext?, store: (any PersistenceAdapter)?
    ) throws -> ValidationErrors {
        var values = _currentValues
        values[slot] = value
        return try ValidationPlans.plan(for: Self.self).run(
            self, values: values, context: context ?? (isNew ? .create : .update), only: slot
        ) { try self.store(store).count($0) }
    }

    private func runValidations(in context: ValidationContext, store: () throws -> any PersistenceAdapter) throws
        -> ValidationErrors
    {
        try runValidations(in: context) { try store().count($0) }
    }

    /// Runs the rules and keeps the outcome; `count` answers uniqueness queries.
    func runValidations(in context: ValidationContext, count: (StoreQuery) throws -> Int) throws -> ValidationErrors {
        _ = recordSchema
        let plan = try ValidationPlans.plan(for: Self.self)
        let values = _currentValues
        let errors = try plan.run(self, values: values, context: context, count: count)
        let extras = self.extras
        extras.validationMemo = ValidationMemo(values: values, errors: errors)
        if errors.isEmpty { extras.lastValid = values }
        return errors
    }
}
