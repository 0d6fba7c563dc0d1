import Foundation

extension ModelProtocol {
    /// Imports a JSON array of records (shaped by ``jsonMapping``) into a store: upsert by
    /// id, all in one transaction.
    ///
    /// For each incoming record:
    /// - without an id, or with an id not stored: it is inserted (**inserted**);
    /// - equal to the stored record on every key it carries: nothing is written
    ///   (**unchanged**);
    /// - different, and the stored record was not modified locally: the incoming values
    ///   are written (**updated**);
    /// - different, and the stored record was modified locally: `resolve` decides
    ///   (**conflict**): keep the local record, take the incoming one, or merge.
    ///
    /// "Modified locally" is `isLocallyModified(local, incoming)`; by default, for models
    /// with `updated_at`, the stored `updated_at` is later than the incoming one (both
    /// present); without it, never.
    ///
    /// Keys an incoming record leaves out are not touched. Saves run hooks and validations
    /// and announce changes as usual, and keep the incoming `updated_at` when it is sent.
    /// Nested relations in the document are read but not written: import each model.
    ///
    /// ```swift
    /// let report = try Todo.importJSON(data) { conflict in
    ///     conflict.changedColumns == ["notes"] ? .keepLocal : .takeIncoming
    /// }
    /// print(report)   // 3 inserted, 1 updated, 0 unchanged, 1 conflict
    /// ```
    ///
    /// - Throws: ``SerializationError`` for the document (with the key path, such as
    ///   `[3].due_date`), and whatever a save throws (validation, hooks, the store).
    ///   Any error rolls the whole import back.
    @discardableResult
    public static func importJSON(
        _ json: Data, into adapter: (any PersistenceAdapter)? = nil,
        resolve: (ImportConflict<Self>) throws -> ImportResolution = { _ in .keepLocal },
        isLocallyModified: ((_ local: Self, _ incoming: Self) -> Bool)? = nil
    ) throws -> ImportReport<Self> {
        let value = try parseJSON(json)
        guard case .array(let elements) = value else {
            throw SerializationError(
                .invalidJSON, model: schema.modelName, expected: "array of \(schema.modelName)", found: value,
                message: "an import is a JSON array of records")
        }
        return try importRecords(elements, into: adapter, resolve: resolve, isLocallyModified: isLocallyModified)
    }

    /// Imports records given as dictionaries (see ``importJSON(_:into:resolve:isLocallyModified:)``).
    @discardableResult
    public static func importRecords(
        _ dictionaries: [[String: ModelValue]], into adapter: (any PersistenceAdapter)? = nil,
        resolve: (ImportConflict<Self>) throws -> ImportResolution = { _ in .keepLocal },
        isLocallyModified: ((_ local: Self, _ incoming: Self) -> Bool)? = nil
    ) throws -> ImportReport<Self> {
        try importRecords(
            dictionaries.map { .dictionary($0) }, into: adapter, resolve: resolve, isLocallyModified: isLocallyModified)
    }

    private static func importRecords(
        _ elements: [ModelValue], into adapter: (any PersistenceAdapter)?,
        resolve: (ImportConflict<Self>) throws -> ImportResolution, isLocallyModified: ((Self, Self) -> Bool)?
    ) throws -> ImportReport<Self> {
        let (schema, store) = try context(adapter)
        return try store.transaction {
            var report = ImportReport<Self>()
            for (index, element) in elements.enumerated() {
                let reader = GraphReader()
                let incoming = Self()
                let assigned = try reader.at(index: index) { () throws(SerializationError) -> [Int] in
                    try reader.fill(incoming, from: element)
                }
                let sendsUpdatedAt = schema.updatedAtIndex.map { assigned.contains($0) } ?? false
                guard let id = incoming.id, let local = try find(id, in: store) else {
                    try incoming.save(store, stampsUpdatedAt: !sendsUpdatedAt)
                    if let id = incoming.id { report.inserted.append(id) }
                    continue
                }
                let changed = assigned.filter { $0 > 0 && local._value(at: $0) != incoming._value(at: $0) }
                if changed.isEmpty {
                    report.unchanged.append(id)
                    continue
                }
                let modified = isLocallyModified?(local, incoming) ?? defaultLocallyModified(local, incoming, assigned)
                guard modified else {
                    for slot in changed { local._assign(incoming._value(at: slot), at: slot) }
                    try local.save(store, stampsUpdatedAt: !sendsUpdatedAt)
                    report.updated.append(id)
                    continue
                }
                let conflict = ImportConflict(
                    index: index, local: local, incoming: incoming, changedColumns: changed.map { schema.columnNames[$0] })
                let resolution = try resolve(conflict)
                switch resolution {
                case .keepLocal:
                    break
                case .takeIncoming:
                    for slot in changed { local._assign(incoming._value(at: slot), at: slot) }
                    try local.save(store, stampsUpdatedAt: !sendsUpdatedAt)
                case .merge(let values):
                    try local.set(values)
                    try local.save(to: store)
                }
                report.conflicts.append(
                    ImportReport<Self>.ResolvedConflict(
                        index: index, id: id, changedColumns: conflict.changedColumns, resolution: resolution))
            }
            ModelLogger(subsystem: "model").info("\(schema.modelName) import: \(report)")
            return report
        }
    }

    /// Both records carry `updated_at` and the stored one is later.
    private static func defaultLocallyModified(_ local: Self, _ incoming: Self, _ assigned: [Int]) -> Bool {
        guard let k = schema.updatedAtIndex, assigned.contains(k),
            case .date(let localDate) = local._value(at: k), case .date(let incomingDate) = incoming._value(at: k)
        else { return false }
        return localDate > incomingDate
    }
}
