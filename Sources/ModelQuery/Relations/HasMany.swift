/// Declares that a model has many children: records of `Child` whose `@BelongsTo` holds
/// this record's id.
///
/// ```swift
/// final class Todo: Model {
///     @Column var name = ""
///     @HasMany(dependent: .destroy) var assignees: Children<Assignee>
///     init() {}
/// }
/// final class Assignee: Model {
///     @Column var name = ""
///     @BelongsTo var todo: Todo?
///     init() {}
/// }
///
/// try todo.assignees.create(["name": "bob"])
/// try todo.assignees.where(\.name == "bob").count()
/// try todo.assignees.append(carol)          // sets carol.todo and saves her
/// ```
///
/// The inverse is the child's only `@BelongsTo` to this model; when there are several,
/// name it: `@HasMany(\Assignee.reviewer) var reviews: Children<Assignee>`. A missing or
/// ambiguous inverse is a ``SchemaError`` `.invalidRelation` on first use of the model.
@propertyWrapper
public struct HasMany<Child: ModelProtocol>: Sendable {
    @usableFromInline let spec: ChildRelationSpec<Child>
    var location: Int { spec.location }

    /// A has-many relation; `dependent` is what `destroy()` does to the children.
    public init(
        _ inverse: (PartialKeyPath<Child> & Sendable)? = nil, dependent: DeleteRule = .nullify,
        line: UInt = #line, column: UInt = #column
    ) {
        spec = ChildRelationSpec(inverse: inverse, rule: dependent, line: line, column: column)
    }

    @available(*, unavailable, message: "@HasMany is only available on Model classes")
    public var wrappedValue: Children<Child> {
        get { preconditionFailure("unreachable: @HasMany outside a Model") }
    }

    // Inlined, so the storage key path folds into a field read (out of line, the generic
    // subscript projected it through the key-path object: about 1,200 instructions an access).
    /// The owner's children, as a query to chain on.
    @inlinable @inline(__always)
    public static subscript<M: ModelProtocol>(
        _enclosingInstance instance: M,
        wrapped wrappedKeyPath: KeyPath<M, Children<Child>>,
        storage storageKeyPath: KeyPath<M, Self>
    ) -> Children<Child> {
        Children(owner: instance, location: instance[keyPath: storageKeyPath].spec.location)
    }
}

extension HasMany: AnyRelationWrapper {
    package func declaration(property name: String, owner: any ModelProtocol.Type) -> RelationDeclaration {
        spec.declaration(.hasMany, property: name, owner: owner)
    }
}
