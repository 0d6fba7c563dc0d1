extension ModelProtocol {
    /// Makes a record from attributes and saves it.
    ///
    /// ```swift
    /// let todo = try Todo.create(["name": "walk", "due_date": "2012-09-15"])
    /// ```
    ///
    /// - Throws: as ``init(_:)`` and ``save(to:validate:)`` (a declining hook throws).
    @discardableResult
    public static func create(_ attributes: [String: ModelValue] = [:], in adapter: (any PersistenceAdapter)? = nil)
        throws -> Self
    {
        let record = try Self(attributes)
        try record.save(to: adapter)
        return record
    }

    /// The stored record with this id, or nil.
    ///
    /// - Complexity: one id lookup in the adapter (O(1) in memory, an index seek in SQL).
    ///
    /// Inside a ``ModelContext`` scope, a record the context already holds is returned as
    /// it is, without reading the store; one deleted in the context (not yet saved) is nil.
    @inlinable public static func find(_ id: IDValue, in adapter: (any PersistenceAdapter)? = nil) throws -> Self? {
        let (schema, store) = try context(adapter)
        return try findRow(id.modelValue, schema: schema, store: store)
    }

    /// Every stored record, in insertion order.
    public static func all(in adapter: (any PersistenceAdapter)? = nil) throws -> [Self] { try allSteps(adapter).run() }

    /// How many records are stored.
    public static func count(in adapter: (any PersistenceAdapter)? = nil) throws -> Int { try countSteps(adapter).run() }

    /// The steps of ``all(in:)`` (for both drivers).
    package static func allSteps(_ adapter: (any PersistenceAdapter)?) throws -> StoreSteps<[Self]> {
        let (schema, store) = try context(adapter)
        return .fetch(StoreQuery(schema: schema), on: store) { .done(try records(from: $0, schema: schema, store: store)) }
    }

    /// The steps of ``count(in:)``.
    package static func countSteps(_ adapter: (any PersistenceAdapter)?) throws -> StoreSteps<Int> {
        let (schema, store) = try context(adapter)
        return .count(StoreQuery(schema: schema), on: store) { .done($0) }
    }

    /// Deletes every record in one bulk operation: no hooks, no per-record notifications,
    /// one ``ModelChange/Action/deleteAll`` change.
    ///
    /// - Returns: how many were deleted.
    @discardableResult
    public static func deleteAll(in adapter: (any PersistenceAdapter)? = nil) throws -> Int { try deleteAllSteps(adapter).run() }

    /// The steps of ``deleteAll(in:)``: the bulk delete, then its one announced change.
    package static func deleteAllSteps(_ adapter: (any PersistenceAdapter)?) throws -> StoreSteps<Int> {
        let (schema, store) = try context(adapter)
        let query = StoreQuery(schema: schema)
        return .call(.delete(query), on: store) { reply in
            let count = try reply.count(for: query)
            announceBulk(.deleteAll, schema: schema, store: store, count: count)
            return .done(count)
        }
    }

    // MARK: Building blocks for queries

    /// The schema (validated) and the adapter a class-level call uses.
    @usableFromInline package static func context(_ adapter: (any PersistenceAdapter)?) throws -> (ModelSchema, any PersistenceAdapter) {
        let schema = Self.schema
        try schema.validate()
        let store = try adapter ?? ModelStore.resolve(ObjectIdentifier(Self.self), modelName: schema.modelName)
        return (schema, store)
    }

    /// Records for the rows a query matches.
    package static func fetch(_ query: StoreQuery, store: any PersistenceAdapter) throws -> [Self] {
        try records(from: store.fetch(query), schema: query.schema, store: store)
    }

    /// Records for rows `store` returned for `schema` (a context's instances inside a
    /// ``ModelContext`` scope).
    package static func records(from rows: [[ModelValue]], schema: ModelSchema, store: any PersistenceAdapter) throws
        -> [Self]
    {
        // `materialize` per row, with the context looked up once per query.
        let registry = contextRegistry(schema)
        let records = try ModelObject._makeArray(of: Self.self, count: rows.count) { objects, initialized in
            // Two loops, so the usual one (no context) tests nothing per row.
            if let registry {
                for row in rows {
                    try schema.checkLoaded(row)
                    let record = registry.resolve(row, schema: schema, store: store, as: Self.self)
                    objects.initializeElement(at: initialized, to: record)
                    initialized += 1
                }
                return
            }
            for row in rows {
                try schema.checkLoaded(row)
                objects.initializeElement(at: initialized, to: _loaded(row, schema: schema, from: store))
                initialized += 1
            }
        }
        return registry.map { $0.visible(records) } ?? records
    }

    /// `find` by a stored id value: the current context's instance, or the store's row.
    @usableFromInline package static func findRow(_ key: ModelValue, schema: ModelSchema, store: any PersistenceAdapter) throws -> Self? {
        let registry = contextRegistry(schema)
        if let registry, let held = held(in: registry, key, schema: schema, store: store) { return held }
        guard let row = try store.find(id: key, in: schema) else { return nil }
        return try materialize(row, schema: schema, store: store, registry: registry)
    }

    /// The registry of the current ``ModelContext`` scope when `schema`'s records join
    /// contexts: looked up once per `find` (the lookup checks the calling task or thread,
    /// which costs more than the rest of a hit).
    package static func contextRegistry(_ schema: ModelSchema) -> (any RecordRegistry)? {
        schema.joinsContexts ? RegistryScope.current : nil
    }

    /// What `registry` (the current ``ModelContext``'s, from ``contextRegistry(_:)``) knows
    /// of the record `key` without reading the store: its instance, `.some(nil)` when the
    /// context deleted it, nil when it holds nothing.
    ///
    /// (Inlined and without `Optional.map`: in the unspecialised generic callers, mapping
    /// into `Self??` ran `Optional.map` and a metadata lookup, about 1,100 instructions a
    /// hit.)
    @inline(__always)
    package static func held(in registry: any RecordRegistry, _ key: ModelValue, schema: ModelSchema, store: any PersistenceAdapter)
        -> Self??
    {
        switch registry.lookup(id: key, schema: schema, store: store, as: Self.self) {
        case .hit(let record):
            guard let typed = record as? Self else { return nil }
            return .some(typed)
        case .deleted: return .some(nil)
        case .miss: return nil
        }
    }

    /// Bulk-deletes the rows a query matches and announces one change.
    package static func deleteRows(_ query: StoreQuery, schema: ModelSchema, store: any PersistenceAdapter) throws -> Int {
        let count = try store.delete(query)
        announceBulk(.deleteAll, schema: schema, store: store, count: count)
        return count
    }

    /// Bulk-updates the rows a query matches (no hooks, no timestamps) and announces one
    /// change naming the columns set.
    package static func updateRows(
        _ query: StoreQuery, set values: [Int: ModelValue], schema: ModelSchema, store: any PersistenceAdapter
    ) throws -> Int {
        let count = try store.update(query, set: values)
        announceBulk(.updateAll, schema: schema, store: store, count: count, slots: values.keys.sorted())
        return count
    }

    /// Announces a bulk delete or update of `count` rows (`slots`: the columns set).
    package static func announceBulk(
        _ action: ModelChange.Action, schema: ModelSchema, store: any PersistenceAdapter, count: Int, slots: [Int] = []
    ) {
        let change = ModelChange(
            action: action, schema: schema, modelType: ObjectIdentifier(Self.self), id: .null, values: [],
            changedSlots: slots, count: count)
        TransactionContext.record(change, schema: schema, instance: nil, adapter: store)
    }

    /// A record holding a stored row, which must fit the schema (``StoreError``
    /// `.invalidStoredValue` otherwise: see `ModelSchema.checkLoaded(_:)`): with `registry`
    /// (the current ``ModelContext``'s, from ``contextRegistry(_:)``, looked up once by the
    /// caller), the context's instance for it.
    package static func materialize(
        _ row: consuming [ModelValue], schema: ModelSchema, store: any PersistenceAdapter, registry: (any RecordRegistry)?
    ) throws -> Self {
        try schema.checkLoaded(row)
        if let registry {
            return registry.resolve(row, schema: schema, store: store, as: Self.self)
        }
        return unsafeDowncast(_loaded(row, schema: schema, from: store), to: Self.self)
    }

    /// A new record of this model holding a stored row (see ``ModelObject/_load(_:schema:from:)``),
    /// as a `ModelObject`: made and loaded through the generic `Self`, it was retained and
    /// released around the load (one pair a loaded record).
    @inlinable @inline(__always) package static func _loaded(
        _ row: consuming [ModelValue], schema: ModelSchema, from store: any PersistenceAdapter
    ) -> ModelObject {
        let record: ModelObject = Self()
        record._load(row, schema: schema, from: store)
        return record
    }
}
