import Foundation

/// Writes records as JSON-ready dictionaries, following nested relations.
///
/// A record written once in a document is written again as a reference, so cycles end
/// and shared records are not repeated. Values come out JSON-ready: dates per the
/// mapping's strategy, UUIDs as strings, data as base64.
package final class GraphWriter {
    /// Identifies a record within a document: stored records by model and id (loading a
    /// relation twice gives two instances of one record), unsaved ones by identity.
    private enum RecordKey: Hashable {
        case stored(ObjectIdentifier, ModelValue)
        case unsaved(ObjectIdentifier)
    }

    private static func key<M: ModelProtocol>(of record: M) -> RecordKey {
        let id = record._currentValues.first ?? .null
        return id.isNull ? .unsaved(ObjectIdentifier(record)) : .stored(ObjectIdentifier(M.self), id)
    }

    /// Records already written: their document-local key, or nil when referred to by id.
    /// References are built only when a record is met again.
    private var written: [RecordKey: Int64?] = [:]
    private var nextLocalKey: Int64 = 1
    /// Document-local keys that a reference used.
    private var referencedLocalKeys = Set<Int64>()
    private var path = DocumentPath()
    private var plans = PlanCache()

    package init() {}

    /// A record as a JSON object.
    ///
    /// Unsaved records in a graph get a document-local `$key` so later references can
    /// name them; with `pruning`, keys no reference used are removed afterwards (a
    /// writer shared across several top-level records keeps them, since a later record
    /// may still refer back).
    package func object<M: ModelProtocol>(_ record: M, pruning: Bool = true) throws(SerializationError)
        -> [String: ModelValue]
    {
        var dictionary = try object(record, nested: false)
        if pruning { try prune(&dictionary, as: M.self) }
        return dictionary
    }

    /// Removes the `$key` entries no reference used from a record written by this writer.
    package func prune<M: ModelProtocol>(_ dictionary: inout [String: ModelValue], as type: M.Type) throws(SerializationError) {
        guard nextLocalKey > 1, referencedLocalKeys.count < Int(nextLocalKey - 1) else { return }
        prune(&dictionary, plan: try plans.plan(for: M.self))
    }

    /// Removes unreferenced `$key` entries, descending only through nested relations (so
    /// user data that happens to contain `$key` is left alone).
    private func prune(_ dictionary: inout [String: ModelValue], plan: SerializationPlan) {
        if case .int(let key)? = dictionary[SerializationPlan.localKey], !referencedLocalKeys.contains(key) {
            dictionary[SerializationPlan.localKey] = nil
        }
        for planned in plan.relations {
            guard let value = dictionary[planned.key],
                let target = try? targetPlan(of: planned.relation.targetType)
            else { continue }
            switch value {
            case .dictionary(var nested):
                prune(&nested, plan: target)
                dictionary[planned.key] = .dictionary(nested)
            case .array(var elements):
                for k in elements.indices {
                    guard case .dictionary(var nested) = elements[k] else { continue }
                    prune(&nested, plan: target)
                    elements[k] = .dictionary(nested)
                }
                dictionary[planned.key] = .array(elements)
            default:
                break
            }
        }
    }

    private func targetPlan<T: ModelProtocol>(of type: T.Type) throws(SerializationError) -> SerializationPlan {
        try plans.plan(for: T.self)
    }

    private func object<M: ModelProtocol>(_ record: M, nested: Bool) throws(SerializationError) -> [String: ModelValue] {
        let plan = try plans.plan(for: M.self)
        _ = record.recordSchema
        let values = record._currentValues
        var dictionary: [String: ModelValue] = [:]
        dictionary.reserveCapacity(plan.columns.count + plan.relations.count + 1)

        // Remember this record before following its relations.
        let schema = plan.schema
        if !values[0].isNull {
            written[Self.key(of: record)] = .some(nil)
        } else if nested || !plan.relations.isEmpty {
            let key = nextLocalKey
            nextLocalKey += 1
            dictionary[SerializationPlan.localKey] = .int(key)
            written[Self.key(of: record)] = .some(key)
        }

        for planned in plan.columns {
            var value = values[planned.slot]
            if value.isNull, plan.nulls == .omit { continue }
            if let transformer = planned.transformer {
                do {
                    value = try transformer.encode(value)
                } catch {
                    throw failure(.invalidValue, schema, key: planned.key, found: value, "the transformer refused it: \(error)")
                }
            }
            dictionary[planned.key] = try jsonValue(value, plan: plan, model: schema.modelName, key: planned.key)
        }
        for planned in plan.relations {
            path.push(planned.key)
            defer { path.pop() }
            let value = try relationValue(of: record, planned.relation)
            if value.isNull, plan.nulls == .omit { continue }
            dictionary[planned.key] = value
        }
        for hook in plan.afterEncoding {
            do {
                try hook(record, &dictionary)
            } catch {
                throw failure(.invalidValue, schema, "the afterEncoding hook failed: \(error)")
            }
        }
        return dictionary
    }

    /// A record met while following relations: its reference if already written.
    private func nestedObject<M: ModelProtocol>(_ record: M) throws(SerializationError) -> ModelValue {
        _ = record.recordSchema
        guard let localKey = written[Self.key(of: record)] else { return .dictionary(try object(record, nested: true)) }
        let plan = try plans.plan(for: M.self)
        var reference: [String: ModelValue] = ["model": .string(plan.schema.modelName)]
        if let localKey {
            referencedLocalKeys.insert(localKey)
            reference["key"] = .int(localKey)
        } else {
            reference["id"] = try jsonValue(record._value(at: 0), plan: plan, model: plan.schema.modelName)
        }
        return .dictionary([SerializationPlan.referenceKey: .dictionary(reference)])
    }

    private func relationValue<M: ModelProtocol>(of record: M, _ relation: Relation) throws(SerializationError) -> ModelValue {
        switch relation.kind {
        case .belongsTo:
            return try parentValue(of: record, relation, relation.targetType)
        case .hasMany:
            let children = try childRecords(of: record, relation, relation.targetType)
            var list: [ModelValue] = []
            list.reserveCapacity(children.count)
            for (k, child) in children.enumerated() {
                path.push(index: k)
                defer { path.pop() }
                list.append(try nestedAny(child))
            }
            return .array(list)
        case .hasOne:
            guard let child = try childRecords(of: record, relation, relation.targetType).first else { return .null }
            return try nestedAny(child)
        case .hasManyThrough:
            return .null  // refused when the plan is built
        }
    }

    private func nestedAny(_ record: any ModelProtocol) throws(SerializationError) -> ModelValue {
        try nestedObject(record)
    }

    private func parentValue<M: ModelProtocol, P: ModelProtocol>(
        of record: M, _ relation: Relation, _ parentType: P.Type
    ) throws(SerializationError) -> ModelValue {
        let parent: P?
        do {
            parent = try record.relatedParent(relation, as: P.self)
        } catch {
            throw failure(.storeFailure, record.recordSchema, "loading \(relation.name) failed: \(error)")
        }
        guard let parent else { return .null }
        return try nestedObject(parent)
    }

    /// The related children as the relation's properties see them: staged, loaded (eager,
    /// `load(_:)`, a decoded document) or read from the record's store; none for an unsaved
    /// record.
    private func childRecords<M: ModelProtocol, C: ModelProtocol>(
        of record: M, _ relation: Relation, _ childType: C.Type
    ) throws(SerializationError) -> [C] {
        do {
            return try record.relatedChildren(relation, as: C.self)
        } catch {
            throw failure(.storeFailure, record.recordSchema, "loading \(relation.name) failed: \(error)")
        }
    }

    /// A stored value in its JSON form; errors name `key` inside the current path.
    private func jsonValue(
        _ value: ModelValue, plan: SerializationPlan, model: String, key: String? = nil
    ) throws(SerializationError) -> ModelValue {
        do {
            return try JSONForms.encode(value, dates: plan.dates)
        } catch {
            throw SerializationError(
                .invalidValue, model: model, keyPath: path.rendered(appending: key), found: error.found,
                message: error.description)
        }
    }

    private func failure(
        _ kind: SerializationError.Kind, _ schema: ModelSchema, key: String? = nil, found: ModelValue? = nil,
        _ message: String
    ) -> SerializationError {
        SerializationError(kind, model: schema.modelName, keyPath: path.rendered(appending: key), found: found, message: message)
    }
}
