/// A model's ``JSONMapping`` checked against its schema and compiled once: every column's
/// key, transformer and slot, the nested relations, and lookup tables for reading.
package final class SerializationPlan: Sendable {
    struct PlannedColumn: Sendable {
        let slot: Int
        let key: String
        let column: ColumnDefinition
        let transformer: JSONTransformer?
    }

    struct PlannedRelation: Sendable {
        let relation: Relation
        let key: String
    }

    let schema: ModelSchema
    let columns: [PlannedColumn]
    let relations: [PlannedRelation]
    let columnByKey: [String: Int]
    let relationByKey: [String: Int]
    /// The keys other than columns' that reading looks at: nested relations, references
    /// and document-local keys.
    let otherKeys: [String]
    let dates: JSONDateStrategy
    let nulls: JSONNullStrategy
    let unknownKeys: JSONUnknownKeyStrategy
    let beforeDecoding: [@Sendable (inout [String: ModelValue]) throws -> Void]
    let afterEncoding: [@Sendable (ModelObject, inout [String: ModelValue]) throws -> Void]

    private init<M: ModelProtocol>(
        _ type: M.Type, schema: ModelSchema, mapping: JSONMapping<M>, columns: [PlannedColumn], relations: [PlannedRelation]
    ) {
        self.schema = schema
        self.columns = columns
        self.relations = relations
        var byKey: [String: Int] = [:]
        for (k, column) in columns.enumerated() { byKey[column.key] = k }
        columnByKey = byKey
        var relationByKey: [String: Int] = [:]
        for (k, relation) in relations.enumerated() { relationByKey[relation.key] = k }
        self.relationByKey = relationByKey
        otherKeys = relations.map(\.key) + [Self.referenceKey, Self.localKey]
        dates = mapping.dates
        nulls = mapping.nulls
        unknownKeys = mapping.unknownKeys
        beforeDecoding = mapping.beforeDecodingHooks
        afterEncoding = mapping.afterEncodingHooks.map { hook in
            { record, dictionary in
                guard let record = record as? M else { return }
                try hook(record, &dictionary)
            }
        }
    }

    /// Reserved keys: references and document-local keys of unsaved records.
    static let referenceKey = "$ref"
    static let localKey = "$key"

    /// Checks `M.jsonMapping` and compiles it.
    static func build<M: ModelProtocol>(_ type: M.Type) throws(SerializationError) -> SerializationPlan {
        let schema = M.schema
        let mapping = M.jsonMapping
        func invalid(_ message: String) -> SerializationError {
            SerializationError(.invalidMapping, model: schema.modelName, message: message)
        }
        let relations: [Relation]
        do {
            relations = try schema.relations()
        } catch {
            throw invalid("\(error)")
        }
        var prototype: M?
        func slot(_ reference: JSONMapping<M>.ColumnReference) throws(SerializationError) -> Int {
            switch reference {
            case .name(let name):
                if let index = schema.index(ofColumn: name) { return index }
                if let column = schema.columns.first(where: { $0.propertyName == name }) { return column.index }
                throw invalid(
                    "the mapping names \"\(name)\", which is not a column; columns: "
                        + schema.columnNames.joined(separator: ", "))
            case .keyPath(let keyPath):
                let record = prototype ?? M()
                prototype = record
                do {
                    return try record.slot(ofPartial: keyPath)
                } catch {
                    throw invalid("a key path in the mapping: \(error.message)")
                }
            }
        }

        var explicitKeys: [Int: String] = [:]
        for (reference, key) in mapping.keys { explicitKeys[try slot(reference)] = key }
        var excluded = Set<Int>()
        for reference in mapping.excluded { excluded.insert(try slot(reference)) }
        var transformers: [Int: JSONTransformer] = [:]
        for (reference, transformer) in mapping.transformers { transformers[try slot(reference)] = transformer }

        let keyCase = mapping.keyCase
        var planned: [PlannedRelation] = []
        for (name, key) in mapping.relations {
            guard let relation = relations.first(where: { $0.name == name }) else {
                throw invalid(
                    "the mapping nests \"\(name)\", which is not a relation; relations: "
                        + relations.map(\.name).joined(separator: ", "))
            }
            guard relation.kind != Relation.Kind.hasManyThrough else {
                throw invalid("\"\(name)\" is a through relation; nest the relation it goes through instead")
            }
            guard !planned.contains(where: { $0.relation.name == name }) else {
                throw invalid("the mapping nests \"\(name)\" twice")
            }
            if relation.kind == Relation.Kind.belongsTo { excluded.insert(relation.foreignKey) }
            planned.append(PlannedRelation(relation: relation, key: key ?? relationKey(name, keyCase)))
        }

        let foreignKeys = Set(relations.filter { $0.kind == .belongsTo }.map(\.foreignKey))
        var columns: [PlannedColumn] = []
        for column in schema.columns where !excluded.contains(column.index) {
            let key =
                explicitKeys[column.index]
                ?? columnKey(column, keyCase, isForeignKey: foreignKeys.contains(column.index))
            columns.append(
                PlannedColumn(slot: column.index, key: key, column: column, transformer: transformers[column.index]))
        }

        var seen: [String: String] = [:]
        for (key, owner) in columns.map({ ($0.key, $0.column.name) }) + planned.map({ ($0.key, $0.relation.name) }) {
            guard key != referenceKey, key != localKey else { throw invalid("\"\(key)\" is reserved for references") }
            if let other = seen[key] { throw invalid("\"\(other)\" and \"\(owner)\" both use the key \"\(key)\"") }
            seen[key] = owner
        }
        return SerializationPlan(M.self, schema: schema, mapping: mapping, columns: columns, relations: planned)
    }

    private static func columnKey(_ column: ColumnDefinition, _ keyCase: JSONKeyCase, isForeignKey: Bool) -> String {
        let inflector = Inflector.shared
        switch keyCase {
        case .columnName, .snakeCase: return column.name
        case .propertyName:
            return isForeignKey ? inflector.camelize(column.name, lowerFirst: true) : column.propertyName
        case .lowerCamelCase: return inflector.camelize(column.name, lowerFirst: true)
        case .upperCamelCase: return inflector.camelize(column.name)
        case .custom(let transform): return transform(column.name)
        }
    }

    private static func relationKey(_ property: String, _ keyCase: JSONKeyCase) -> String {
        let inflector = Inflector.shared
        let snake = snakeCased(property)
        switch keyCase {
        case .columnName, .snakeCase: return snake
        case .propertyName: return property
        case .lowerCamelCase: return inflector.camelize(snake, lowerFirst: true)
        case .upperCamelCase: return inflector.camelize(snake)
        case .custom(let transform): return transform(snake)
        }
    }
}

extension SerializationPlan {
    /// A JSON value read for a column: its transformer, then the JSON forms (dates from
    /// numbers, data from base64), then the column's casting rules. Errors name `keyPath`.
    func read(
        _ raw: ModelValue, _ planned: PlannedColumn, keyPath: @autoclosure () -> String
    ) throws(SerializationError) -> ModelValue {
        let column = planned.column
        func failure(_ kind: SerializationError.Kind, _ message: String) -> SerializationError {
            SerializationError(
                kind, model: schema.modelName, keyPath: keyPath(), expected: column.castTarget.description, found: raw,
                message: message)
        }
        var value = raw
        if let transformer = planned.transformer {
            do {
                value = try transformer.decode(value)
            } catch {
                throw failure(.invalidValue, "the transformer refused it: \(error)")
            }
        }
        do {
            value = try JSONForms.decode(value, type: column.type, elementType: column.elementType, dates: dates)
            return try schema.castForAssignment(value, at: planned.slot)
        } catch let error as CastError {
            throw failure(.typeMismatch, error.reason)
        } catch {
            throw failure(.typeMismatch, "\(error)")
        }
    }
}

/// The compiled plans, one per model type, built on first use.
package enum SerializationPlans {
    private static let plans = Locked<[ObjectIdentifier: Result<SerializationPlan, SerializationError>]>([:])

    /// The plan of `type`; a mapping error is reported every time it is used.
    package static func plan<M: ModelProtocol>(for type: M.Type) throws(SerializationError) -> SerializationPlan {
        let key = ObjectIdentifier(type)
        if let cached = plans.withLock({ $0[key] }) { return try cached.get() }
        let built: Result<SerializationPlan, SerializationError>
        do {
            built = .success(try SerializationPlan.build(M.self))
        } catch {
            built = .failure(error)
        }
        let stored = plans.withLock { plans in
            if let existing = plans[key] { return existing }
            plans[key] = built
            return built
        }
        return try stored.get()
    }
}

/// The plans one document uses, looked up in ``SerializationPlans`` once per model
/// rather than once per record.
package struct PlanCache {
    private var plans: [ObjectIdentifier: SerializationPlan] = [:]

    package init() {}

    package mutating func plan<M: ModelProtocol>(for type: M.Type) throws(SerializationError) -> SerializationPlan {
        if let plan = plans[ObjectIdentifier(type)] { return plan }
        let plan = try SerializationPlans.plan(for: M.self)
        plans[ObjectIdentifier(type)] = plan
        return plan
    }
}
