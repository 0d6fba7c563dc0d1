import ModelCore

extension Validatable {
    /// The validation of an async `save()`: `beforeValidation`, the rules and
    /// `afterValidation` run here, in the caller's isolation; the store reads of
    /// uniqueness rules run on the blocking pool, never on the caller's thread (or are
    /// awaited on an ``AsyncPersistenceAdapter``).
    ///
    /// The rules run twice when the model has uniqueness rules: once to learn which
    /// queries they ask for the record's values (answered "not taken", results dropped),
    /// then with the stored answers.
    nonisolated(nonsending) public func validateForSaveAsync(isNew: Bool, store: any PersistenceAdapter) async throws
        -> SaveValidationResult
    {
        guard try beforeValidation() else { return .declined(hook: "beforeValidation") }
        let context: ValidationContext = isNew ? .create : .update
        let plan = try ValidationPlans.plan(for: Self.self)
        var asked: [StoreQuery] = []
        if plan.readsStore {
            _ = try plan.run(self, values: _currentValues, context: context) { query in
                asked.append(query)
                return 0
            }
        }
        let queries = asked
        var answers: [Int] = []
        if let native = AsyncStoreRoute.native(store) {
            for query in queries { answers.append(try await native.count(query)) }
        } else if !queries.isEmpty {
            answers = try await BlockingPool.shared.run(on: store) { try queries.map { try store.count($0) } }
        }
        var next = 0
        let errors = try runValidations(in: context) { query in
            defer { next += 1 }
            // The same values ask the same queries in the same order; anything else is
            // asked of the store directly.
            guard next < queries.count, queries[next] == query else { return try store.count(query) }
            return answers[next]
        }
        afterValidation()
        if errors.isEmpty { return .valid }
        return .invalid(RecordInvalid(model: recordSchema.modelName, id: _value(at: 0), errors: errors))
    }
}
