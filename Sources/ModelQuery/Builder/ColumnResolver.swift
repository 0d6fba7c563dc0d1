import Synchronization

/// Turns column references (names, key paths) and query values into row indexes and cast
/// values for one model; key-path lookups are cached per key path.
struct ColumnResolver<M: ModelProtocol> {
    let schema: ModelSchema

    init() { schema = M.schema }

    /// The row index of a stored column name.
    func slot(_ name: String) throws(QueryError) -> Int {
        guard let slot = schema.index(ofColumn: name) else {
            throw QueryError(
                .unknownColumn, model: schema.modelName, column: name,
                message: "no column named \"\(name)\"; columns: " + schema.columns.map(\.name).joined(separator: ", "))
        }
        return slot
    }

    /// The row index of the `@Column` property behind a key path (`\.id` is 0).
    func slot<V>(_ keyPath: KeyPath<M, V>) throws(QueryError) -> Int {
        try slot(partial: keyPath)
    }

    /// The row index of the `@Column` property behind a type-erased key path.
    func slot(partial keyPath: PartialKeyPath<M>) throws(QueryError) -> Int {
        if let cached = KeyPathSlots.cache.withLock({ $0[KeyPathSlots.Key(keyPath)] }) {
            if cached >= 0 { return cached }
            throw QueryError(
                .unknownColumn, model: schema.modelName, column: "\(keyPath)", message: "the key path is not an @Column property")
        }
        if (keyPath as AnyKeyPath) == (\M.id as AnyKeyPath) { return 0 }
        let probe = M()
        do {
            let slot = try probe.slot(ofPartial: keyPath)
            KeyPathSlots.cache.withLock { $0[KeyPathSlots.Key(keyPath)] = slot }
            return slot
        } catch {
            throw QueryError(
                .unknownColumn, model: schema.modelName, column: "\(keyPath)",
                message: "the key path is not an @Column property")
        }
    }

    /// The row index behind a key path, or nil when it is not an `@Column` property (a
    /// relation, a computed property). Both answers are cached per key path, so the model
    /// is instantiated at most once per key path for the process.
    func columnSlot(ifAny keyPath: PartialKeyPath<M>) -> Int? {
        let key = KeyPathSlots.Key(keyPath)
        if let cached = KeyPathSlots.cache.withLock({ $0[key] }) { return cached >= 0 ? cached : nil }
        let slot = try? slot(partial: keyPath)
        if slot == nil { KeyPathSlots.cache.withLock { $0[key] = -1 } }
        return slot
    }

    /// A value read once from a prototype record through `keyPath` and cached per key path
    /// (a relation wrapper's declaration location, say).
    func prototypeValue(_ keyPath: PartialKeyPath<M>, _ read: (M) -> Int) -> Int {
        let key = KeyPathSlots.Key(keyPath)
        if let cached = KeyPathSlots.locations.withLock({ $0[key] }) { return cached }
        let value = read(M())
        KeyPathSlots.locations.withLock { $0[key] = value }
        return value
    }

    /// `value` cast for the column at `slot`, as assignment casts it.
    func cast(_ value: ModelValue, for slot: Int) throws(QueryError) -> ModelValue {
        let column = schema.columns[slot]
        if value.isNull { return .null }
        let target = CastTarget(column.type, optional: true, elementType: column.elementType)
        do {
            let cast = try Caster.cast(value, to: target)
            if column.accepts(cast) { return cast }
        } catch {
            throw QueryError(
                .invalidValue, model: schema.modelName, column: column.name, value: value,
                message: "\(value.debugDescription) cannot be compared with the \(column.castTarget) column: \(error.reason)")
        }
        throw QueryError(
            .invalidValue, model: schema.modelName, column: column.name, value: value,
            message: "\(value.debugDescription) is out of range for the column's Swift type")
    }

    /// Fails unless the column at `slot` holds strings.
    func requireText(_ slot: Int, for operation: String) throws(QueryError) {
        let column = schema.columns[slot]
        guard column.type == .string || column.type == .text else {
            throw QueryError(
                .invalidOperator, model: schema.modelName, column: column.name,
                message: "\(operation) needs a string column, not \(column.type)")
        }
    }
}

/// Key path → row index, shared by every model (key paths include their root type).
enum KeyPathSlots {
    /// Column row indexes (`-1`: the key path is not a column).
    static let cache = Locked<[Key: Int]>([:])
    /// Relation wrappers' declaration locations, by the key path of the relation property.
    static let locations = Locked<[Key: Int]>([:])

    /// A key path as a dictionary key.
    ///
    /// `@unchecked Sendable`: only ever read or stored inside `cache`'s lock; key paths
    /// are immutable once formed, and the ones cached here name stored `@Column`
    /// properties (no captured subscript arguments).
    struct Key: Hashable, @unchecked Sendable {
        let keyPath: AnyKeyPath
        init(_ keyPath: AnyKeyPath) { self.keyPath = keyPath }
    }
}
