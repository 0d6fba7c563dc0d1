/// Declares that a model has one child: the `Child` whose `@BelongsTo` holds this
/// record's id.
///
/// ```swift
/// final class User: Model {
///     @HasOne(dependent: .destroy) var profile: Profile?
///     init() {}
/// }
///
/// try user.load(\.profile)     // reads the profile from the store (or eager-load it
///                              // with `User.query().including(\.profile)`)
/// user.profile                 // the loaded or assigned profile, no store access
/// user.profile = newProfile    // staged: the next `try user.save()` links newProfile and
///                              // nullifies, deletes or destroys the old one (per `dependent`)
/// try user.save()
/// ```
///
/// Like `@BelongsTo`, the property never touches the store: it returns the staged child,
/// else the loaded one, else nil (`user.isLoaded(\.profile)` tells "not loaded" from
/// "none").
///
/// Replacing is staged because it writes other records and Swift setters cannot throw:
/// `save()` applies it in the same store transaction as the owner, so a failure (a
/// `.restrict` rule, a declining hook) rolls everything back and is thrown by `save()`.
/// Until then the property returns the staged child.
@propertyWrapper
public struct HasOne<Child: ModelProtocol>: Sendable {
    @usableFromInline let spec: ChildRelationSpec<Child>
    var location: Int { spec.location }

    /// A has-one relation; `dependent` is what `destroy()` and replacement do to the
    /// child.
    public init(
        _ inverse: (PartialKeyPath<Child> & Sendable)? = nil, dependent: DeleteRule = .nullify,
        line: UInt = #line, column: UInt = #column
    ) {
        spec = ChildRelationSpec(inverse: inverse, rule: dependent, line: line, column: column)
    }

    @available(*, unavailable, message: "@HasOne is only available on Model classes")
    public var wrappedValue: Child? {
        get { preconditionFailure("unreachable: @HasOne outside a Model") }
        set { preconditionFailure("unreachable: @HasOne outside a Model") }
    }

    // Inlined, so the storage key path folds into a field read and the types are known
    // (out of line, the generic subscript projected the key path with a dynamic
    // exclusivity check and looked up `HasOne<Child>`'s metadata on every access).
    /// Reads return the staged or loaded child (no store access); writes stage a
    /// replacement.
    @inlinable @inline(__always)
    public static subscript<M: ModelProtocol>(
        _enclosingInstance instance: M,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<M, Child?>,
        storage storageKeyPath: ReferenceWritableKeyPath<M, Self>
    ) -> Child? {
        get { child(of: instance, at: instance[keyPath: storageKeyPath].spec.location) }
        set { stage(newValue, on: instance, at: instance[keyPath: storageKeyPath].spec.location) }
    }

    /// The child staged on `owner` for the relation at `location`, else the loaded one.
    @usableFromInline static func child(of owner: ModelObject, at location: Int) -> Child? {
        guard let extras = owner._extrasIfAny else { return nil }
        if extras.related.probe != nil { extras.related.probe = location }
        if let staged = extras.related.staged[location] { return staged.child as? Child }
        return owner.loadedChildren(at: location, as: Child.self)?.first
    }

    /// Stages `child` on `owner` as the relation's replacement child.
    @usableFromInline static func stage(_ child: Child?, on owner: ModelObject, at location: Int) {
        _ = child?.recordSchema
        owner.extras.related.staged[location] = StagedChild(child: child)
    }
}

extension HasOne: AnyRelationWrapper {
    package func declaration(property name: String, owner: any ModelProtocol.Type) -> RelationDeclaration {
        spec.declaration(.hasOne, property: name, owner: owner)
    }
}
