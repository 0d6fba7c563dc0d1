import Foundation

/// Reads records from JSON objects, following nested relations and resolving references
/// to records read earlier in the same document (so a cycle reads back as the same
/// instances).
package final class GraphReader {
    /// Records read so far by model and id, and by document-local key.
    private var byID: [ObjectIdentifier: [ModelValue: ModelObject]] = [:]
    private var byLocalKey: [Int64: ModelObject] = [:]
    private var path = DocumentPath()
    private var plans = PlanCache()

    package init() {}

    /// A record of type `M` read from `value`: a new record, or the one a reference or an
    /// id already read in this document names.
    package func record<M: ModelProtocol>(_ type: M.Type, from value: ModelValue) throws(SerializationError) -> M {
        let plan = try plans.plan(for: M.self)
        let dictionary = try object(value, plan: plan)
        if let reference = dictionary[SerializationPlan.referenceKey] { return try resolve(reference, as: M.self, plan: plan) }
        let record = M()
        _ = try fill(record, from: dictionary, plan: plan)
        return record
    }

    /// Reads `dictionary` into `record` (a new record); returns the slots it assigned.
    ///
    /// When the document already holds a record of this model with the same id, `record`
    /// is still filled (so initialisers can use it); nested references go to the first.
    @discardableResult
    package func fill<M: ModelProtocol>(_ record: M, from value: ModelValue) throws(SerializationError) -> [Int] {
        let plan = try plans.plan(for: M.self)
        return try fill(record, from: try object(value, plan: plan), plan: plan)
    }

    /// The value as a JSON object, or a type error naming the model.
    private func object(_ value: ModelValue, plan: SerializationPlan) throws(SerializationError) -> [String: ModelValue] {
        guard case .dictionary(let dictionary) = value else {
            throw failure(.typeMismatch, plan.schema, expected: "\(plan.schema.modelName) object", found: value, "not a JSON object")
        }
        return dictionary
    }

    /// Runs `body` with `index` pushed on the document path (for top-level arrays).
    package func at<R>(index: Int, _ body: () throws(SerializationError) -> R) throws(SerializationError) -> R {
        path.push(index: index)
        defer { path.pop() }
        return try body()
    }

    private func fill<M: ModelProtocol>(
        _ record: M, from original: [String: ModelValue], plan: SerializationPlan
    ) throws(SerializationError) -> [Int] {
        let schema = plan.schema
        var dictionary = original
        for hook in plan.beforeDecoding {
            do {
                try hook(&dictionary)
            } catch {
                throw failure(.invalidValue, schema, "the beforeDecoding hook failed: \(error)")
            }
        }
        if plan.unknownKeys == .reject {
            for key in dictionary.keys.sorted()
            where plan.columnByKey[key] == nil && plan.relationByKey[key] == nil && key != SerializationPlan.localKey {
                path.push(key)
                defer { path.pop() }
                throw failure(.unknownKey, schema, "no column or nested relation uses this key")
            }
        }

        _ = record.recordSchema
        var assigned: [Int] = []
        assigned.reserveCapacity(plan.columns.count)
        for planned in plan.columns {
            guard let raw = dictionary[planned.key] else { continue }
            let value = try columnValue(raw, planned, record: record, plan: plan)
            record._assign(value, at: planned.slot)
            assigned.append(planned.slot)
        }

        // Register before relations, so references inside them find this record.
        let id = record._value(at: 0)
        if !id.isNull, byID[ObjectIdentifier(M.self), default: [:]][id] == nil {
            byID[ObjectIdentifier(M.self), default: [:]][id] = record
        }
        if let local = dictionary[SerializationPlan.localKey] {
            guard case .int(let key) = local else {
                path.push(SerializationPlan.localKey)
                defer { path.pop() }
                throw failure(.typeMismatch, schema, expected: "int", found: local, "a document-local key is an integer")
            }
            byLocalKey[key] = record
        }

        for planned in plan.relations {
            guard let raw = dictionary[planned.key] else { continue }
            path.push(planned.key)
            defer { path.pop() }
            try readRelation(raw, planned.relation, into: record)
        }
        return assigned
    }

    // MARK: Columns

    private func columnValue<M: ModelProtocol>(
        _ raw: ModelValue, _ planned: SerializationPlan.PlannedColumn, record: M, plan: SerializationPlan
    ) throws(SerializationError) -> ModelValue {
        try plan.read(raw, planned, keyPath: path.rendered(appending: planned.key))
    }

    // MARK: Relations

    private func readRelation<M: ModelProtocol>(
        _ raw: ModelValue, _ relation: Relation, into record: M
    ) throws(SerializationError) {
        switch relation.kind {
        case .belongsTo:
            if raw.isNull {
                record._linkParent(nil, slot: relation.foreignKey)
            } else {
                record._linkParent(try nestedRecord(relation.targetType, from: raw), slot: relation.foreignKey)
            }
        case .hasMany:
            guard case .array(let elements) = raw else {
                throw failure(
                    .typeMismatch, record.recordSchema, expected: "array of \(relation.target.modelName)", found: raw,
                    "nested children are an array")
            }
            record.setLoadedChildren(
                try children(relation.targetType, from: elements, owner: record, foreignKey: relation.foreignKey),
                at: relation.location)
        case .hasOne:
            let elements: [ModelValue] = raw.isNull ? [] : [raw]
            record.setLoadedChildren(
                try children(relation.targetType, from: elements, owner: record, foreignKey: relation.foreignKey),
                at: relation.location)
        case .hasManyThrough:
            break  // refused when the plan is built
        }
    }

    private func nestedRecord<T: ModelProtocol>(_ type: T.Type, from value: ModelValue) throws(SerializationError) -> T {
        try record(T.self, from: value)
    }

    /// Children read from `elements`, linked to `owner` (the relation then holds them as
    /// loaded).
    private func children<C: ModelProtocol>(
        _ type: C.Type, from elements: [ModelValue], owner: ModelObject, foreignKey: Int
    ) throws(SerializationError) -> [ModelObject] {
        var list: [ModelObject] = []
        list.reserveCapacity(elements.count)
        for (k, element) in elements.enumerated() {
            path.push(index: k)
            defer { path.pop() }
            let child = try record(C.self, from: element)
            child._linkInverse(owner, slot: foreignKey)
            list.append(child)
        }
        return list
    }

    // MARK: References

    private func resolve<M: ModelProtocol>(
        _ reference: ModelValue, as type: M.Type, plan: SerializationPlan
    ) throws(SerializationError) -> M {
        let schema = plan.schema
        path.push(SerializationPlan.referenceKey)
        defer { path.pop() }
        guard case .dictionary(let body) = reference, case .string(let model)? = body["model"] else {
            throw failure(
                .unresolvedReference, schema, found: reference, "a reference is {\"model\": name, \"id\": id} or {\"model\": name, \"key\": n}")
        }
        guard model == schema.modelName else {
            throw failure(.unresolvedReference, schema, found: reference, "it refers to a \(model) where a \(schema.modelName) belongs")
        }
        var target: ModelObject?
        if let id = body["id"] {
            let cast: ModelValue
            do {
                cast = try Caster.cast(id, to: CastTarget(schema.idColumn.type))
            } catch {
                throw failure(.unresolvedReference, schema, found: id, "the id does not convert to \(schema.idColumn.type): \(error.reason)")
            }
            target = byID[ObjectIdentifier(M.self)]?[cast]
        } else if case .int(let key)? = body["key"] {
            target = byLocalKey[key]
        }
        guard let found = target as? M else {
            throw failure(
                .unresolvedReference, schema, found: reference,
                "no \(schema.modelName) with this id or key appears earlier in the document")
        }
        return found
    }

    /// An error at the current path, or at `key` inside it.
    private func failure(
        _ kind: SerializationError.Kind, _ schema: ModelSchema, key: String? = nil, expected: String? = nil,
        found: ModelValue? = nil, _ message: String
    ) -> SerializationError {
        SerializationError(
            kind, model: schema.modelName, keyPath: path.rendered(appending: key), expected: expected, found: found,
            message: message)
    }
}
