/// A record's bookkeeping as the package's other modules (ModelQuery, ModelValidation,
/// ModelSerialization, ModelForms, ModelServer) read and write it.
///
/// ``ModelObject``'s stored properties are `@exclusivity(unchecked)`, but the attribute is
/// honoured only where the access is compiled: `record.__home` written in another module
/// begins and ends a dynamic access there (about 130 instructions; `ModelContext.save()`
/// made seven a record). These accessors are inlinable, so their bodies, compiled here
/// with unchecked accesses, are inlined into their callers: no call, no check. Records are
/// single-owner, as the stored properties' own comment explains.
extension ModelObject {
    /// The current values in schema order (``__values``).
    @inlinable package final var _currentValues: [ModelValue] { __values }

    /// The current value in `slot` (``__values``), which must be in the row.
    @inlinable package final func _value(at slot: Int) -> ModelValue { __values[slot] }

    /// Whether the record exists in a store (``__isPersisted``).
    @inlinable package final var _isPersisted: Bool { __isPersisted }

    /// The schema, if attached (``__schema``).
    @inlinable package final var _attachedSchema: ModelSchema? { __schema }

    /// The adapter the record was loaded from or saved to (``__home``).
    @inlinable package final var _home: (any PersistenceAdapter)? { __home }

    /// Whether the record was loaded from or saved to `store`.
    @inlinable package final func _isHome(_ store: any PersistenceAdapter) -> Bool { __home === store }

    /// The context holding the record (``__membership``).
    @inlinable package final var _membership: RegistryMembership? {
        get { __membership }
        set { __membership = newValue }
    }

    /// Whether the record's registry holds it as possibly changed (``__registryTracked``).
    @inlinable package final var _registryTracked: Bool {
        get { __registryTracked }
        set { __registryTracked = newValue }
    }

    /// Where the record sits in its registry's table of pending work (``__pendingPlace``).
    @inlinable package final var _pendingPlace: Int {
        get { __pendingPlace }
        set { __pendingPlace = newValue }
    }

    /// Joins a registry generation as an unchanged member.
    @inlinable package final func _join(_ membership: RegistryMembership) {
        __membership = membership
        __registryTracked = false
    }

    /// Observers, bindings and links, if the record has any (``__extras``).
    @inlinable package final var _extrasIfAny: RecordExtras? { __extras }

    /// The owner this record was reached through (``__inverse``) while that link waits
    /// for a save, else nil.
    @inlinable package final var _pendingInverseOwner: ModelObject? { __inverse.pending ? __inverse.owner : nil }
}
