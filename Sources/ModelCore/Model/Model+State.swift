/// An old and a new value of one column.
public struct ColumnChange: Sendable, Equatable, CustomStringConvertible {
    /// The value as last saved (or initialised, for a new record).
    public let old: ModelValue
    /// The current value.
    public let new: ModelValue

    /// Creates a change.
    public init(old: ModelValue, new: ModelValue) {
        self.old = old
        self.new = new
    }

    public var description: String { "\(old) → \(new)" }
}

extension ModelProtocol {
    /// Whether the record has never been saved (or was deleted).
    public var isNew: Bool {
        _ = recordSchema
        return !__isPersisted
    }

    /// Whether any column differs from its saved (or initial) value.
    ///
    /// Assigning a value equal to the current one does not make a record dirty, and
    /// assigning back the saved value makes it clean again.
    public var isDirty: Bool {
        _ = recordSchema
        return _valuesChanged
    }

    /// The columns that differ from their saved (or initial) value: name → old and new.
    public var changes: [String: ColumnChange] {
        let schema = recordSchema
        var result: [String: ColumnChange] = [:]
        let baseline = __baseline
        for k in __values.indices where __values[k] != baseline[k] {
            result[schema.columns[k].name] = ColumnChange(old: baseline[k], new: __values[k])
        }
        return result
    }

    /// Returns every column to its last valid state (the values of the last successful
    /// validation since the record was saved or loaded, see ModelValidation) or, when there
    /// is none or the record is already there, to its last saved value (for a new record,
    /// its initial value). Observers are told about each column that changes.
    public func revert() {
        _ = recordSchema
        if let valid = __extras?.lastValid, valid != __values {
            _assignAll(valid)
        } else {
            _assignAll(__baseline)
        }
    }

    /// Replaces the values with the stored row, and forgets loaded and staged related
    /// records (a `@HasOne` assignment not yet saved is discarded).
    ///
    /// - Throws: ``ModelError`` `.notPersisted` for a new record, `.recordNotFound` if the
    ///   row is gone; adapter errors.
    public func reload() throws {
        let (schema, store) = try reloadSource()
        try applyReloaded(store.find(id: __baselineID, in: schema), schema: schema)
    }

    /// The schema and store `reload()` reads, or why it cannot.
    package func reloadSource() throws -> (ModelSchema, any PersistenceAdapter) {
        let schema = recordSchema
        try schema.validate()
        guard __isPersisted, let store = __home else {
            throw ModelError(.notPersisted, model: schema.modelName, message: "reload() needs a saved record")
        }
        return (schema, store)
    }

    /// Takes the stored row `reload()` read (nil: the row is gone).
    package func applyReloaded(_ row: [ModelValue]?, schema: ModelSchema) throws {
        guard let row else {
            throw ModelError(.recordNotFound, model: schema.modelName, id: __baselineID, message: "the record is no longer stored")
        }
        _assignAll(row)
        __baseline = row
        __extras?.lastValid = nil
        forgetRelated()
    }
}
