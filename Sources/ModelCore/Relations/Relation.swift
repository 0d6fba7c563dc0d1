/// A resolved relation of a model: its kind, the related model's schema and the foreign
/// key that links them.
///
/// ```swift
/// let relation = try Task.schema.relation(named: "assignees")
/// relation?.kind          // .hasMany
/// relation?.target.modelName   // "Assignee"
/// ```
public struct Relation: Sendable, CustomStringConvertible {
    /// The kind of relation.
    public enum Kind: String, Sendable, Hashable {
        /// The owner holds the foreign key (`assignee.task`).
        case belongsTo
        /// Many targets hold the owner's id (`task.assignees`).
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
    /// Store operations on the targets (for `hasMany`/`hasOne`).
    package let ops: RelationOps?
    /// The related model's type (serialization makes and reads its records).
    package let targetType: any ModelProtocol.Type

    package init(
        name: String, kind: Kind, ownerModel: String, target: ModelSchema, targetType: any ModelProtocol.Type,
        foreignKey: Int, rule: DeleteRule?, through: (via: String, source: String)? = nil, location: Int, ops: RelationOps?
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
        self.ops = ops
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

/// The store operations a parent's `destroy()` applies to the children of one relation,
/// made where the child type is known.
package struct RelationOps: Sendable {
    /// Destroys each record the query selects (hooks run); a declining hook throws.
    package let destroy: @Sendable (StoreQuery, any PersistenceAdapter) throws -> Void
    /// Bulk-deletes the records the query selects, applying their own relations' rules at
    /// row level (see `deleteRowsApplyingRules`); `visited` ends cycles.
    package let delete: @Sendable (StoreQuery, any PersistenceAdapter, inout Set<RowKey>) throws -> Void
    /// Sets the foreign key to nil on the records the query selects.
    package let nullify: @Sendable (StoreQuery, Int, any PersistenceAdapter) throws -> Void

    /// The operations for child model `Child`.
    package static func of<Child: ModelProtocol>(_ child: Child.Type) -> RelationOps {
        RelationOps(
            destroy: { query, store in
                for record in try Child.fetch(query, store: store) {
                    guard try record.destroy() else {
                        throw ModelError(
                            .cancelled, model: query.schema.modelName, id: record.__baseline[0],
                            message: "a before-hook declined while destroying dependent records; nothing was deleted")
                    }
                }
            },
            delete: { query, store, visited in _ = try Child.deleteRowsApplyingRules(query, store: store, visited: &visited) },
            nullify: { query, foreignKey, store in
                _ = try Child.updateRows(query, set: [foreignKey: .null], schema: query.schema, store: store)
            })
    }
}
