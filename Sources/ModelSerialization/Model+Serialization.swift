import Foundation

extension ModelProtocol {
    /// The record as a JSON-ready dictionary, shaped by the model's ``JSONMapping``: mapped
    /// keys, no excluded columns, dates per the date strategy, UUIDs as strings, data as
    /// base64, nested relations and references.
    ///
    /// ```swift
    /// try todo.dictionaryValue()   // ["id": 1, "name": "walk", "due_date": "2012-09-15T00:00:00.000Z", …]
    /// ```
    ///
    /// - Throws: ``SerializationError`` (a non-finite double, a refusing transformer or hook,
    ///   a nested relation that fails to load, an invalid mapping).
    public func dictionaryValue() throws(SerializationError) -> [String: ModelValue] {
        try GraphWriter().object(self)
    }

    /// A new (unsaved) record read from a dictionary shaped by the model's ``JSONMapping``:
    /// values are cast by the casting rules, missing keys keep the defaults, `null` sets
    /// nil, nested relations are read and linked.
    ///
    /// ```swift
    /// let team = try Team(dictionary: ["TeamName": "Rovers", "players": [["name": "Ann"]]])
    /// try team.players.count()     // 1 (read from the dictionary, not a store)
    /// ```
    ///
    /// - Throws: ``SerializationError`` naming the key path, the expected type and the
    ///   value found. Nothing is half-read: the error leaves no record.
    public init(dictionary: [String: ModelValue]) throws(SerializationError) {
        self.init()
        try GraphReader().fill(self, from: .dictionary(dictionary))
    }

    /// A new (unsaved) record read from a JSON object (see ``init(dictionary:)``).
    ///
    /// - Throws: ``SerializationError`` `.invalidJSON` for malformed text, then as
    ///   ``init(dictionary:)``.
    public init(json: Data) throws(SerializationError) {
        self.init()
        let value = try Self.parseJSON(json)
        try GraphReader().fill(self, from: value)
    }

    /// The record as JSON text, compact, keys sorted (see ``dictionaryValue()``).
    public func jsonData() throws(SerializationError) -> Data {
        Data(ModelJSON.serializedBytes(.dictionary(try dictionaryValue())))
    }

    /// The record as a JSON string (see ``jsonData()``).
    public func jsonString() throws(SerializationError) -> String {
        ModelJSON.serialize(.dictionary(try dictionaryValue()))
    }

    /// Records read from a JSON array of objects; references may point at records earlier
    /// in the array.
    ///
    /// ```swift
    /// let teams = try Team.records(fromJSON: data)
    /// ```
    public static func records(fromJSON json: Data) throws(SerializationError) -> [Self] {
        try records(from: parseJSON(json))
    }

    /// Records read from an array of dictionaries (see ``records(fromJSON:)``).
    public static func records(from dictionaries: [[String: ModelValue]]) throws(SerializationError) -> [Self] {
        try records(from: .array(dictionaries.map { .dictionary($0) }))
    }

    private static func records(from value: ModelValue) throws(SerializationError) -> [Self] {
        guard case .array(let elements) = value else {
            throw SerializationError(
                .invalidJSON, model: schema.modelName, expected: "array of \(schema.modelName)", found: value,
                message: "not a JSON array")
        }
        let reader = GraphReader()
        var records: [Self] = []
        records.reserveCapacity(elements.count)
        for (k, element) in elements.enumerated() {
            records.append(try reader.at(index: k) { () throws(SerializationError) -> Self in
                try reader.record(Self.self, from: element)
            })
        }
        return records
    }

    /// JSON text parsed into a value.
    package static func parseJSON(_ json: Data) throws(SerializationError) -> ModelValue {
        guard let text = UTF8Text.string(json) else {
            throw SerializationError(.invalidJSON, model: schema.modelName, message: "the data is not UTF-8 text")
        }
        do {
            return try ModelJSON.parse(text)
        } catch {
            throw SerializationError(.invalidJSON, model: schema.modelName, message: error.description)
        }
    }
}

extension Sequence {
    /// The records as JSON-ready dictionaries; a record met twice (or in a cycle) is
    /// written in full once, then as a reference.
    public func dictionaryValues<M: ModelProtocol>() throws(SerializationError) -> [[String: ModelValue]]
    where Element == M {
        let writer = GraphWriter()
        var list: [[String: ModelValue]] = []
        for record in self { list.append(try writer.object(record, pruning: false)) }
        for k in list.indices { try writer.prune(&list[k], as: M.self) }
        return list
    }

    /// The records as a JSON array (see ``dictionaryValues()``).
    public func jsonData<M: ModelProtocol>() throws(SerializationError) -> Data where Element == M {
        let list = try dictionaryValues().map { ModelValue.dictionary($0) }
        return Data(ModelJSON.serializedBytes(.array(list)))
    }
}
