/// Finds the `@BelongsTo` on `Child` that points back at the owner of a `hasMany` or
/// `hasOne`: the one the declaration names, or the only one there is.
enum InverseResolution {
    static func foreignKey<Child: ModelProtocol>(
        of child: Child.Type, owner: ModelSchema, ownerType: ObjectIdentifier, relation name: String,
        inverse: (PartialKeyPath<Child> & Sendable)?
    ) -> Result<Int, SchemaError> {
        let childSchema = Child.schema
        func failure(_ reason: String) -> Result<Int, SchemaError> {
            .failure(SchemaError(.invalidRelation, model: owner.modelName, column: name, reason: reason))
        }
        let candidates = childSchema.relationDeclarations.filter { $0.kind == .belongsTo && $0.target == ownerType }
        if let inverse {
            let slot: Int
            do {
                slot = try Child().slot(ofPartial: inverse)
            } catch {
                return failure("the inverse \(inverse) is not a @BelongsTo property of \(childSchema.modelName)")
            }
            guard let match = candidates.first(where: { $0.foreignKey == slot }) else {
                return failure("the inverse \(inverse) is not a @BelongsTo to \(owner.modelName)")
            }
            return .success(match.foreignKey ?? slot)
        }
        switch candidates.count {
        case 1: return .success(candidates[0].foreignKey ?? -1)
        case 0:
            return failure(
                "\(childSchema.modelName) has no @BelongsTo to \(owner.modelName); declare `@BelongsTo var …: \(owner.modelName)?` on \(childSchema.modelName)"
            )
        default:
            return failure(
                "\(childSchema.modelName) has several @BelongsTo to \(owner.modelName) ("
                    + candidates.map(\.name).joined(separator: ", ")
                    + "); name the inverse, for example @HasMany(\\\(childSchema.modelName).\(candidates[0].name))")
        }
    }
}

extension Query {
    /// A query that fails with `error` when run.
    init(failing error: QueryError) {
        self.init()
        problem = error
    }
}

extension QueryError {
    /// A relation problem, as a query error.
    init(relation error: SchemaError) {
        self.init(.invalidRelation, model: error.model, column: error.column, message: error.reason)
    }
}

/// Finds the resolved relation a wrapper declared.
enum RelationLookup {
    static func relation(of owner: ModelObject, at location: Int) throws(QueryError) -> Relation {
        let schema = owner._attachedSchema ?? SchemaRegistry.schema(forObject: owner)
        let found: Relation?
        do {
            found = try schema.relation(at: location)
        } catch {
            throw QueryError(relation: error)
        }
        guard let found else {
            throw QueryError(.invalidRelation, model: schema.modelName, message: "the relation is not in the schema")
        }
        return found
    }
}

/// What `@HasMany` and `@HasOne` declare: where (the wrapper's identity), the inverse
/// `@BelongsTo` when named, and the delete rule.
@usableFromInline struct ChildRelationSpec<Child: ModelProtocol>: Sendable {
    @usableFromInline let location: Int
    let inverse: (PartialKeyPath<Child> & Sendable)?
    let rule: DeleteRule

    init(inverse: (PartialKeyPath<Child> & Sendable)?, rule: DeleteRule, line: UInt, column: UInt) {
        self.location = Int(line) << 32 | Int(column)
        self.inverse = inverse
        self.rule = rule
    }

    /// The relation's declaration: resolving it finds the inverse foreign key on `Child`.
    func declaration(_ kind: Relation.Kind, property name: String, owner: any ModelProtocol.Type) -> RelationDeclaration {
        let (location, inverse, rule) = (self.location, self.inverse, self.rule)
        let ownerType = ObjectIdentifier(owner)
        return RelationDeclaration(name: name, location: location, kind: kind, target: ObjectIdentifier(Child.self), foreignKey: nil) {
            ownerSchema in
            InverseResolution.foreignKey(of: Child.self, owner: ownerSchema, ownerType: ownerType, relation: name, inverse: inverse)
                .map { slot in
                    Relation(
                        name: name, kind: kind, ownerModel: ownerSchema.modelName, target: Child.schema, targetType: Child.self, foreignKey: slot,
                        rule: rule, location: location, stagedWriter: kind == .hasOne ? HasOneWriter<Child>(location: location) : nil)
                }
        }
    }
}
