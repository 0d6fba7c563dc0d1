import ModelCore

extension Validatable {
    /// The validation of an async `save()`: the same steps as the synchronous one (see
    /// ``StoreSteps``), run by the async driver. `beforeValidation`, the rules (once) and
    /// `afterValidation` run here, in the caller's isolation; the counts of uniqueness
    /// rules are awaited on an ``AsyncPersistenceAdapter`` or run on the blocking pool,
    /// never on the caller's thread.
    nonisolated(nonsending) public func validateForSaveAsync(isNew: Bool, store: any PersistenceAdapter) async throws
        -> SaveValidationResult
    {
        try await saveValidationSteps(isNew: isNew, store: store).run()
    }
}
