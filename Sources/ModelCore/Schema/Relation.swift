// Relations as the schema describes them. Everything relations *do* — the property
// wrappers, loading, eager loading, staged writes and delete rules — lives in
// ModelQuery/Relations; ModelCore only records what was declared, so that schemas,
// `save()` and adapters can see relations without depending on the query layer.

/// What `destroy()` does to a parent's related records (`dependent:` in MotionModel).
///
/// `delete()` ignores relations; only `destroy()` (and `destroyAll()`) applies these.
public enum DeleteRule: String, Sendable, Hashable, CaseIterable {
    /// Destroy each child (its hooks run, its own relations' rules apply, recursively).
    case destroy
    /// Delete the children in one bulk operation, applying their own relations' rules at
    /// row level (as SQL `ON DELETE` actions do); no hooks run.
    case delete
    /// Set the children's foreign key to nil (the default).
    case nullify
    /// Refuse to destroy the parent while children exist (``ModelError`` `.restricted`).
    case restrict
}

/// A resolved relation of a model: its kind, the related model's schema and the foreign
/// key that links them.
///
/// ```swift
/// let relation = try Todo.schema.relation(named: "assignees")
/// relation?.kind          // .hasMany
/// relation?.target.modelName   // "Assignee"
/// ```
public struct Relation: Sendable, CustomStringConvertible {
    /// The kind of relation.
    public enum Kind: String, Sendable, Hashable {
        /// The owner holds the foreign key (`assignee.todo`).
        case belongsTo
        /// Many targets hold the owner's id (`todo.assignees`).
        case hasMany
        /// One target holds the owner's id (`user.profile`).
        case hasOne
        /// Targets reached through another relation (`league.players` through teams).
        case hasManyThrough
    }

    /// The property name on the owner.
    public let name: String
    /// The kind.
    public let kind: Kind
    /// The owner's model name.
    public let ownerModel: String
    /// The related model's schema (the parent for `belongsTo`, the far end for `through`).
    public let target: ModelSchema
    /// The foreign key's row index: in the owner for `belongsTo`, in the target for
    /// `hasMany`/`hasOne`; `-1` for `through`.
    public let foreignKey: Int
    /// What `destroy()` does to the targets (`hasMany`/`hasOne`; `nil` otherwise).
    public let rule: DeleteRule?
    /// For `through`: the owner's relation to the intermediate model, then the
    /// intermediate's relation to the target.
    public let through: (via: String, source: String)?
    /// The declaration's source position (identifies the wrapper).
    package let location: Int
    /// Writes a record staged on this relation (`user.profile = p`) when the owner is
    /// saved (`hasOne`; nil otherwise).
    package let stagedWriter: (any StagedRelationWriter)?
    /// The related model's type (opened where the relation's behaviour needs it).
    package let targetType: any ModelProtocol.Type

    package init(
        name: String, kind: Kind, ownerModel: String, target: ModelSchema, targetType: any ModelProtocol.Type,
        foreignKey: Int, rule: DeleteRule?, through: (via: String, source: String)? = nil, location: Int,
        stagedWriter: (any StagedRelationWriter)? = nil
    ) {
        self.targetType = targetType
        self.name = name
        self.kind = kind
        self.ownerModel = ownerModel
        self.target = target
        self.foreignKey = foreignKey
        self.rule = rule
        self.through = through
        self.location = location
        self.stagedWriter = stagedWriter
    }

    public var description: String {
        var text = "\(ownerModel).\(name): \(kind.rawValue) \(target.modelName)"
        if let rule { text += " (\(rule.rawValue))" }
        if let through { text += " through \(through.via).\(through.source)" }
        return text
    }
}

/// A relation as declared, before the related models' schemas are consulted.
package struct RelationDeclaration: Sendable {
    /// The property name.
    package let name: String
    /// The wrapper's declaration position.
    package let location: Int
    /// The kind.
    package let kind: Relation.Kind
    /// The related model type (for `belongsTo`, the parent).
    package let target: ObjectIdentifier
    /// For `belongsTo`, the foreign key's row index in the owner (known at build).
    package let foreignKey: Int?
    /// Resolves against the owner's schema.
    package let resolve: @Sendable (ModelSchema) -> Result<Relation, SchemaError>

    package init(
        name: String, location: Int, kind: Relation.Kind, target: ObjectIdentifier, foreignKey: Int?,
        resolve: @escaping @Sendable (ModelSchema) -> Result<Relation, SchemaError>
    ) {
        self.name = name
        self.location = location
        self.kind = kind
        self.target = target
        self.foreignKey = foreignKey
        self.resolve = resolve
    }
}

/// A relation wrapper found on a model's prototype (`@HasMany`, `@HasOne`, …).
package protocol AnyRelationWrapper {
    /// The declaration for the property named `name` of a model whose type is `owner`.
    func declaration(property name: String, owner: any ModelProtocol.Type) -> RelationDeclaration
}

/// A `@BelongsTo` found on a prototype: its foreign key names the parent.
package protocol AnyBelongsToWrapper: AnyColumnWrapper {
    static var parentType: any ModelProtocol.Type { get }
    static func declaration(property name: String, location: Int, slot: Int, owner: String) -> RelationDeclaration
}

/// Writes the record staged on a relation of `owner` (for example `user.profile = p`).
/// `save()` calls it after writing the owner, inside the same store transaction; the
/// relation types implement it.
package protocol StagedRelationWriter: Sendable {
    /// The write, each store call blocking the calling thread (the synchronous save).
    func write(_ staged: ModelObject?, owner: ModelObject, store: any PersistenceAdapter) throws
    /// The same write with each store call awaited (the async save): it runs in the
    /// isolation of the caller, which owns `owner` and `staged`.
    nonisolated(nonsending) func write(_ staged: ModelObject?, owner: ModelObject, store: any PersistenceAdapter) async throws
}
