/// Writes a `@HasOne` child staged on its owner when the owner is saved.
struct HasOneWriter<Child: ModelProtocol>: StagedRelationWriter {
    let location: Int

    func write(_ staged: ModelObject?, owner: ModelObject, store: any PersistenceAdapter) throws {
        let plan = try HasOneReplacement(try child(staged), owner: owner, location: location)
        for old in try Child.fetch(plan.current, store: store) where plan.replaces(old) {
            switch try plan.step(for: old) {
            case .destroy: guard try old.destroy() else { throw plan.declined(old) }
            case .delete: _ = try old.delete()
            case .nullify:
                plan.unlink(old)
                try old.save(to: store)
            }
        }
        if let child = plan.child {
            plan.link(child)
            try child.save(to: store)
        }
    }

    nonisolated(nonsending) func write(_ staged: ModelObject?, owner: ModelObject, store: any PersistenceAdapter) async throws {
        let plan = try HasOneReplacement(try child(staged), owner: owner, location: location)
        let rows = try await StoreCall.fetch(plan.current).reply(from: store).rows(for: plan.current)
        for old in try Child.records(from: rows, schema: plan.current.schema, store: store) where plan.replaces(old) {
            switch try plan.step(for: old) {
            case .destroy: guard try await old.destroy() else { throw plan.declined(old) }
            case .delete: _ = try await old.delete()
            case .nullify:
                plan.unlink(old)
                try await old.save(to: store)
            }
        }
        if let child = plan.child {
            plan.link(child)
            try await child.save(to: store)
        }
    }

    private func child(_ staged: ModelObject?) throws -> Child? {
        guard let staged else { return nil }
        guard let typed = staged as? Child else {
            throw QueryError(.invalidRelation, model: Child.schema.modelName, message: "the staged record is not a \(Child.self)")
        }
        return typed
    }
}

/// What replacing the child of a `@HasOne` does, without the store work: which children
/// the owner has now (a query), which of them go and how (the relation's rule), and the
/// link the new child takes. ``HasOneWriter`` runs it, blocking or awaiting each call.
struct HasOneReplacement<Child: ModelProtocol> {
    /// What happens to a current child that is not the new one.
    enum Step { case destroy, delete, nullify }

    let child: Child?
    let owner: ModelObject
    let relation: Relation
    /// The owner's current children.
    let current: StoreQuery
    /// The new child's id when it is stored already (it stays).
    private let keep: ModelValue?

    init(_ child: Child?, owner: ModelObject, location: Int) throws {
        self.child = child
        self.owner = owner
        relation = try RelationLookup.relation(of: owner, at: location)
        current = relation.children(of: [owner.__baselineID])
        if let child, !child.isNew { keep = .some(child._value(at: 0)) } else { keep = .none }
    }

    /// Whether `old`, a current child, is replaced (it is not the new child).
    func replaces(_ old: Child) -> Bool { old._value(at: 0) != keep }

    /// What the rule does to a replaced child; a `.restrict` rule refuses.
    func step(for old: Child) throws -> Step {
        switch relation.rule {
        case .restrict:
            throw ModelError(
                .restricted, model: relation.ownerModel, id: owner.__baselineID,
                message: "cannot replace \(relation.name): the current \(relation.target.modelName) is restricted")
        case .destroy: .destroy
        case .delete: .delete
        case .nullify, nil: .nullify
        }
    }

    /// The error of a replaced child whose `destroy()` was declined by a hook.
    func declined(_ old: Child) -> ModelError {
        ModelError(.cancelled, model: relation.target.modelName, id: old._value(at: 0), message: "destroy() was declined")
    }

    /// Clears a replaced child's link (the `.nullify` rule; the caller saves it).
    func unlink(_ old: Child) { old._assign(.null, at: relation.foreignKey) }

    /// Links the new child to the owner (the caller saves it).
    func link(_ child: Child) {
        _ = child.recordSchema
        child._linkInverse(owner, slot: relation.foreignKey)
    }
}
