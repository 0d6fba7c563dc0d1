/// Declares that a model belongs to a parent: a foreign-key column holding the parent's
/// id (named `<property>_id`, of the parent's id type, optional and indexed).
///
/// ```swift
/// final class Assignee: Model {
///     @Column var name = ""
///     @BelongsTo var todo: Todo?          // column "todo_id" (Int64? for Todo's Int64 ids)
///     @BelongsTo("owner_uuid") var owner: User?
///     init() {}
/// }
///
/// assignee.todo = todo                  // sets todo_id (same parent again: not dirty)
/// assignee.todo?.name                   // the assigned parent, no store access
/// try assignee.load(\.todo)             // reads the parent from the store
/// assignee.todo = nil                   // clears todo_id
/// ```
///
/// The property never touches the store: it returns the parent that was assigned or
/// loaded — by `try record.load(\.todo)` or `Query.including(\.todo)` — for the current
/// foreign key, and nil otherwise (`record.isLoaded(\.todo)` tells "not loaded" from "no
/// parent"). A parent assigned before it is saved is linked when the child is saved,
/// provided the parent has been saved by then (otherwise the save throws ``ModelError``
/// `.notPersisted`).
@propertyWrapper
public struct BelongsTo<Parent: ModelProtocol>: Sendable {
    /// The declaration's source position (identifies the column).
    @usableFromInline package let location: Int

    /// A belongs-to relation whose foreign key is `column` (default `<property>_id`).
    @inlinable public init(_ column: String? = nil, line: UInt = #line, column position: UInt = #column) {
        let location = Int(line) << 32 | Int(position)
        self.location = location
        DeclarationCapture.record {
            CapturedColumn(
                Parent.IDValue?.self, location: location, name: column, options: [.indexed], declaredDefault: nil, factory: nil)
        }
    }

    @available(*, unavailable, message: "@BelongsTo is only available on Model classes")
    public var wrappedValue: Parent? {
        get { preconditionFailure("unreachable: @BelongsTo outside a Model") }
        set { preconditionFailure("unreachable: @BelongsTo outside a Model") }
    }

    // Always inlined. Left to the optimiser, the storage key path was sometimes kept as an
    // object (an optional column's setter, a `@BelongsTo` getter): each such access in the
    // model's module then paid a key-path lookup and a dynamic exclusivity check on the
    // wrapper (80 to 230 instructions an access in the benchmarks).
    /// Reads return the assigned or loaded parent (no store access); writes set the
    /// foreign key.
    @inlinable @inline(__always)
    public static subscript<M: ModelProtocol>(
        _enclosingInstance instance: M,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<M, Parent?>,
        storage storageKeyPath: ReferenceWritableKeyPath<M, Self>
    ) -> Parent? {
        get { instance._parent(location: instance[keyPath: storageKeyPath].location, in: M.self) as? Parent }
        set { instance._setParent(newValue, location: instance[keyPath: storageKeyPath].location) }
    }
}

extension BelongsTo: AnyColumnWrapper {
    package static var columnType: ColumnType { Parent.IDValue.columnType }
    package static var isOptional: Bool { true }
    package static var elementType: ColumnType? { nil }
    package static var swiftTypeName: String { "\(Parent.self)?" }
    package static func accepts(_ value: ModelValue) -> Bool { Parent.IDValue?(modelValue: value) != nil }
    package static var acceptor: @Sendable (ModelValue) -> Bool { { Parent.IDValue?(modelValue: $0) != nil } }
}

extension BelongsTo: AnyBelongsToWrapper {
    package static var parentType: any ModelProtocol.Type { Parent.self }

    /// The declaration of this relation, whose foreign key is at row index `slot`.
    package static func declaration(property name: String, location: Int, slot: Int, owner: String) -> RelationDeclaration {
        RelationDeclaration(
            name: name, location: location, kind: .belongsTo, target: ObjectIdentifier(Parent.self), foreignKey: slot
        ) { ownerSchema in
            .success(
                Relation(
                    name: name, kind: .belongsTo, ownerModel: owner, target: Parent.schema, targetType: Parent.self, foreignKey: slot, rule: nil,
                    location: location))
        }
    }
}
