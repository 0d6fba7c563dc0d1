/// A model's rows as flat JSON objects, shaped by its ``JSONMapping``: the form adapters
/// that speak JSON (``RESTAdapter``'s requests and responses) send and read.
///
/// It maps columns only: keys, excluded columns, transformers, the date and null
/// strategies, unknown keys and `beforeDecoding` hooks apply; nested relations and
/// `afterEncoding` hooks (which need a record, not a row) do not. Built once per schema
/// and cached.
///
/// ```swift
/// let codec = try RowJSONCodec.codec(for: Team.schema)
/// let object = try codec.object(from: row)      // ["id": 1, "TeamName": "Rovers", …]
/// let back = try codec.row(from: object)        // the row, cast by the casting rules
/// ```
public struct RowJSONCodec: Sendable {
    private let plan: SerializationPlan
    /// Planned column index by row index (nil for excluded columns).
    private let plannedBySlot: [Int?]

    /// The schema the codec maps.
    public var schema: ModelSchema { plan.schema }

    private init(plan: SerializationPlan) {
        self.plan = plan
        var bySlot = [Int?](repeating: nil, count: plan.schema.columns.count)
        for (k, column) in plan.columns.enumerated() { bySlot[column.slot] = k }
        plannedBySlot = bySlot
    }

    private static let cache = Locked<[ObjectIdentifier: RowJSONCodec]>([:])

    /// The codec of `schema`'s model (its ``ModelProtocol/jsonMapping``), built on first use.
    ///
    /// - Throws: ``SerializationError`` `.invalidMapping` for a schema built without a
    ///   model type or a mapping that does not fit the schema.
    public static func codec(for schema: ModelSchema) throws(SerializationError) -> RowJSONCodec {
        if let cached = cache.withLock({ $0[ObjectIdentifier(schema)] }) { return cached }
        guard let type = schema.modelType else {
            throw SerializationError(
                .invalidMapping, model: schema.modelName, message: "the schema has no model type to read a JSON mapping from")
        }
        func build<M: ModelProtocol>(_ type: M.Type) throws(SerializationError) -> SerializationPlan {
            try SerializationPlans.plan(for: M.self)
        }
        let codec = RowJSONCodec(plan: try build(type))
        cache.withLock { $0[ObjectIdentifier(schema)] = codec }
        return codec
    }

    /// The JSON key of the column at row index `column`; nil when the mapping excludes it.
    public func key(forColumn column: Int) -> String? {
        guard column >= 0, column < plannedBySlot.count, let planned = plannedBySlot[column] else { return nil }
        return plan.columns[planned].key
    }

    /// Whether the mapping reads the column at `column` through a transformer (whose JSON
    /// form may be of any kind).
    public func hasTransformer(forColumn column: Int) -> Bool {
        guard column >= 0, column < plannedBySlot.count, let planned = plannedBySlot[column] else { return false }
        return plan.columns[planned].transformer != nil
    }

    /// The row index of the column written under `key`.
    public func column(forKey key: String) -> Int? {
        plan.columnByKey[key].map { plan.columns[$0].slot }
    }

    /// The JSON form of `value` for the column at `column` (transformer, then dates, UUIDs
    /// and data in their JSON forms): what a query parameter or body carries.
    public func jsonValue(_ value: ModelValue, forColumn column: Int) throws(SerializationError) -> ModelValue {
        let planned = column >= 0 && column < plannedBySlot.count ? plannedBySlot[column].map { plan.columns[$0] } : nil
        var value = value
        if let transformer = planned?.transformer {
            do {
                value = try transformer.encode(value)
            } catch {
                throw failure(.invalidValue, key: planned?.key, found: value, "the transformer refused it: \(error)")
            }
        }
        do {
            return try JSONForms.encode(value, dates: plan.dates)
        } catch {
            throw failure(.invalidValue, key: planned?.key, found: error.found, error.description)
        }
    }

    /// The value of the column at `column` read from its JSON form `raw` (transformer,
    /// JSON forms, then the column's casting rules): the inverse of ``jsonValue(_:forColumn:)``,
    /// for a value that arrives alone (a query parameter).
    ///
    /// - Throws: ``SerializationError`` naming the key, the expected type and the value.
    public func value(fromJSON raw: ModelValue, forColumn column: Int) throws(SerializationError) -> ModelValue {
        guard column >= 0, column < plannedBySlot.count, let planned = plannedBySlot[column] else {
            throw failure(.invalidValue, found: raw, "column \(column) is not in the JSON mapping")
        }
        return try plan.read(raw, plan.columns[planned], keyPath: plan.columns[planned].key)
    }

    /// The row as a JSON object: every mapped column, or only `columns` (row indexes)
    /// when given. Nil values are left out under ``JSONNullStrategy/omit``.
    public func object(from row: [ModelValue], columns: [Int]? = nil) throws(SerializationError) -> [String: ModelValue] {
        var object: [String: ModelValue] = [:]
        object.reserveCapacity(columns?.count ?? plan.columns.count)
        func add(_ planned: SerializationPlan.PlannedColumn) throws(SerializationError) {
            guard planned.slot < row.count else { return }
            let value = row[planned.slot]
            if value.isNull, plan.nulls == .omit { return }
            object[planned.key] = try jsonValue(value, forColumn: planned.slot)
        }
        if let columns {
            for slot in columns where slot >= 0 && slot < plannedBySlot.count {
                if let k = plannedBySlot[slot] { try add(plan.columns[k]) }
            }
        } else {
            for planned in plan.columns { try add(planned) }
        }
        return object
    }

    /// A row read from a JSON object: mapped keys are cast by the casting rules, missing
    /// keys take the column's default (nil for the id and optional columns).
    ///
    /// - Throws: ``SerializationError`` naming the key, the expected type and the value
    ///   found; `.unknownKey` for extra keys under ``JSONUnknownKeyStrategy/reject``.
    public func row(from original: [String: ModelValue]) throws(SerializationError) -> [ModelValue] {
        let schema = plan.schema
        var object = original
        for hook in plan.beforeDecoding {
            do {
                try hook(&object)
            } catch {
                throw failure(.invalidValue, "the beforeDecoding hook failed: \(error)")
            }
        }
        if plan.unknownKeys == .reject {
            for key in object.keys.sorted() where plan.columnByKey[key] == nil && plan.relationByKey[key] == nil {
                throw failure(.unknownKey, key: key, "no column or nested relation uses this key")
            }
        }
        var row = schema.newRecordValues()
        for planned in plan.columns {
            guard let raw = object[planned.key] else { continue }
            row[planned.slot] = try plan.read(raw, planned, keyPath: planned.key)
        }
        return row
    }

    private func failure(
        _ kind: SerializationError.Kind, key: String? = nil, expected: String? = nil, found: ModelValue? = nil,
        _ message: String
    ) -> SerializationError {
        SerializationError(
            kind, model: plan.schema.modelName, keyPath: key ?? "", expected: expected, found: found, message: message)
    }
}
