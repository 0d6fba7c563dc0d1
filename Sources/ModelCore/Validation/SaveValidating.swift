/// What a validating model says about a pending save.
public enum SaveValidationResult: Sendable {
    /// The record may be saved.
    case valid
    /// A hook (such as `beforeValidation`) declined; the save returns `false`.
    case declined(hook: String)
    /// The record is invalid; `save()` throws this error and `saveIfValid()` returns `false`.
    case invalid(any Error & Sendable)
}

/// A model whose saves are checked before anything is written.
///
/// ModelValidation's `Validatable` refines this protocol and implements its requirement;
/// you rarely conform to it directly. `save()` calls ``validateForSave(isNew:store:)``
/// once, before `beforeSave`, unless it is called with `validate: false`.
public protocol SaveValidating: ModelProtocol {
    /// Runs the validation hooks and rules for a save into `store`.
    ///
    /// - Parameters:
    ///   - isNew: whether the save will insert (the `create` context) or update.
    ///   - store: the store the save writes to (for checks such as uniqueness).
    func validateForSave(isNew: Bool, store: any PersistenceAdapter) throws -> SaveValidationResult

    /// ``validateForSave(isNew:store:)`` for the async `save()`: hooks and rules run in
    /// the caller's isolation, store reads (uniqueness) on the blocking pool.
    nonisolated(nonsending) func validateForSaveAsync(isNew: Bool, store: any PersistenceAdapter) async throws
        -> SaveValidationResult

    /// Called after a save that validated has written (and stamped ids and timestamps), so
    /// the record can note that its saved values are the validated ones.
    func validatedSaveDidFinish()
}

extension SaveValidating {
    /// Default: does nothing.
    public func validatedSaveDidFinish() {}

    /// Default: the synchronous validation, here.
    nonisolated(nonsending) public func validateForSaveAsync(isNew: Bool, store: any PersistenceAdapter) async throws
        -> SaveValidationResult
    {
        try validateForSave(isNew: isNew, store: store)
    }
}
