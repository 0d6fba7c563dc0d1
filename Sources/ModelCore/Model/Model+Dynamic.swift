extension ModelProtocol {
    /// Makes a record from column names and values, casting each value to its column's
    /// type. All or nothing: an unknown key or uncastable value throws and no record is
    /// made.
    ///
    /// ```swift
    /// let todo = try Todo(["name": "walk", "due_date": "2012-09-15"])
    /// ```
    ///
    /// - Throws: ``ModelError`` `.unknownColumn`, ``CastError``.
    public init(_ attributes: [String: ModelValue]) throws {
        self.init()
        try set(attributes)
    }

    /// Every column's current value by stored name (id included).
    public var attributes: [String: ModelValue] {
        let schema = recordSchema
        var result: [String: ModelValue] = [:]
        result.reserveCapacity(schema.columns.count)
        for column in schema.columns { result[column.name] = __values[column.index] }
        return result
    }

    /// A column's current value by stored name.
    ///
    /// ```swift
    /// let due = try todo["due_date"]     // .date(…)
    /// ```
    ///
    /// - Throws: ``ModelError`` `.unknownColumn`.
    public subscript(column: String) -> ModelValue {
        get throws(ModelError) { __values[try slot(named: column)] }
    }

    /// Assigns a value by column name, cast to the column's type (see `Docs/Casting.md`).
    ///
    /// ```swift
    /// try todo.set("due_date", to: "2012-09-19")
    /// try todo.set("priority", to: "3")        // .int(3)
    /// ```
    ///
    /// - Throws: ``ModelError`` `.unknownColumn`, ``CastError``. The record is unchanged
    ///   when it throws.
    public func set(_ column: String, to value: ModelValue) throws {
        let slot = try slot(named: column)
        let cast = try castForColumn(value, at: slot)
        if recordSchema.tracksFieldTimestamps { _noteSet(slot) }
        _assign(cast, at: slot)
    }

    /// Assigns a Swift value (a `Date`, `UUID`, `Set`, …) by column name, with casting.
    public func set(_ column: String, to value: some ModelValueConvertible) throws {
        try set(column, to: value.modelValue)
    }

    /// Assigns several columns at once, all or nothing.
    ///
    /// - Throws: ``ModelError`` `.unknownColumn`, ``CastError``; nothing is assigned then.
    public func set(_ attributes: [String: ModelValue]) throws {
        var cast: [(Int, ModelValue)] = []
        cast.reserveCapacity(attributes.count)
        for (name, value) in attributes.sorted(by: { $0.key < $1.key }) {
            let slot = try slot(named: name)
            cast.append((slot, try castForColumn(value, at: slot)))
        }
        let tracks = recordSchema.tracksFieldTimestamps
        for (slot, value) in cast {
            if tracks { _noteSet(slot) }
            _assign(value, at: slot)
        }
    }

    package func slot(named name: String) throws(ModelError) -> Int {
        let schema = recordSchema
        guard let slot = schema.index(ofColumn: name) else {
            throw ModelError(
                .unknownColumn, model: schema.modelName, column: name,
                message: "no column named \"\(name)\"; columns: " + schema.columns.map(\.name).joined(separator: ", "))
        }
        return slot
    }

    /// Casts a value for a column: nil becomes the declared default on non-optional
    /// columns that have one; the result must decode as the property's Swift type.
    package func castForColumn(_ value: ModelValue, at slot: Int) throws(CastError) -> ModelValue {
        try recordSchema.castForAssignment(value, at: slot)
    }
}

extension ModelObject {
    /// The record as its model, through its schema's model type: no conformance lookup, as
    /// `as? any ModelProtocol` makes. Nil for a `ModelObject` that is no model.
    package final var asModel: (any ModelProtocol)? {
        if let type = __schema?.modelType { return type._model(self) }
        return self as? any ModelProtocol
    }
}

extension ModelProtocol {
    /// `object` as this model, when it is one (a class cast).
    package static func _model(_ object: ModelObject) -> (any ModelProtocol)? { object as? Self }
}
