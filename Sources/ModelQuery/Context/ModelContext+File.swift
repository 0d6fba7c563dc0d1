import Foundation
import ModelCore

/// Writing a context to a file and reading it back: every held record with its state —
/// inserted, changed, deleted or unchanged — so unsaved work survives a relaunch.
///
/// ```swift
/// try context.write(to: draftsURL)
/// let restored = try ModelContext(contentsOf: draftsURL, models: [Todo.self, Assignee.self])
/// try restored.save()          // writes what was pending when the file was written
/// ```
extension ModelContext {
    /// Writes every record the context holds, with its unsaved changes, to `url` as JSON
    /// (atomically: a reader sees the old file or the new one).
    public func write(to url: URL) throws {
        let held = records.filter { $0._attachedSchema != nil }
        let position = Dictionary(uniqueKeysWithValues: held.enumerated().map { (ObjectIdentifier($0.element), $0.offset) })
        let deleted = state.withLock { state in Set(state.pending.values.filter(\.deleted).map { ObjectIdentifier($0.record) }) }
        var models: [String: [String]] = [:]
        var entries: [ContextFile.Record] = []
        for record in held {
            guard let schema = record._attachedSchema else { continue }
            models[schema.modelName] = schema.columnNames
            let state: ContextFile.Record.State =
                deleted.contains(ObjectIdentifier(record)) ? .deleted
                : !record._isPersisted ? .inserted : record._valuesChanged ? .changed : .unchanged
            var links: [ContextFile.Link] = []
            if record.__inverse.pending, let owner = record.__inverse.owner, let index = position[ObjectIdentifier(owner)] {
                links.append(ContextFile.Link(slot: Int(record.__inverse.slot), record: index, inverse: true))
            }
            for (slot, link) in record._extrasIfAny?.related.parents ?? [:] where link.pending {
                if let parent = link.parent, let index = position[ObjectIdentifier(parent)] {
                    links.append(ContextFile.Link(slot: slot, record: index))
                }
            }
            entries.append(
                ContextFile.Record(
                    model: schema.modelName, state: state, values: record._currentValues.map(TaggedValue.init),
                    baseline: record.__baseline.map(TaggedValue.init), links: links.isEmpty ? nil : links))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(ContextFile(models: models, records: entries))
        try data.write(to: url, options: .atomic)
    }

    /// Reads a context written by ``write(to:)``.
    ///
    /// - Parameters:
    ///   - url: the file.
    ///   - models: the model types the file may name.
    ///   - store: the store the file's stored records belong to (default: each model's
    ///     store, as ``ModelStore`` resolves it now).
    ///   - parent: the new context's parent, if it is a child.
    /// - Throws: ``ContextError`` `.invalidFile` for a missing, damaged or foreign file,
    ///   or one written for other columns; `.unknownModel` for a model not in `models`.
    ///   Nothing is registered then.
    public convenience init(
        contentsOf url: URL, models: [any ModelProtocol.Type], store: (any PersistenceAdapter)? = nil,
        parent: ModelContext? = nil
    ) throws {
        self.init(parent: parent, name: url.lastPathComponent)
        let path = url.path
        func invalid(_ message: String, model: String? = nil) -> ContextError {
            ContextError(.invalidFile, model: model, path: path, message: message)
        }
        let file: ContextFile
        do {
            let data = try Data(contentsOf: url)
            // The strict reader first: JSONDecoder reads a number beyond Double's range
            // (`1e-400`, `1e400`) as 0 or ±infinity instead of refusing it.
            _ = try ModelJSON.parse(String(decoding: data, as: UTF8.self))
            file = try JSONDecoder().decode(ContextFile.self, from: data)
        } catch {
            throw invalid("not a context file (\(error))")
        }
        guard file.format == ContextFile.formatName, file.version == 1 else {
            throw invalid("format \(file.format) version \(file.version) is not \(ContextFile.formatName) version 1")
        }
        var types: [String: any ModelProtocol.Type] = [:]
        for type in models { types[type.schema.modelName] = type }
        var made: [ModelObject] = []
        for entry in file.records {
            guard let type = types[entry.model] else {
                throw ContextError(.unknownModel, model: entry.model, path: path, message: "the file holds \(entry.model) records; pass \(entry.model).self in models")
            }
            let schema = type.schema
            guard file.models[entry.model] == schema.columnNames else {
                throw invalid("written for columns \(file.models[entry.model] ?? []), the model now has \(schema.columnNames)", model: entry.model)
            }
            let values = entry.values.map(\.value), baseline = entry.baseline.map(\.value)
            do {
                try schema.checkLoaded(values, allowingNullID: entry.state == .inserted)
                try schema.checkLoaded(baseline, allowingNullID: entry.state == .inserted)
            } catch {
                throw invalid("a record does not fit the model: \(error)", model: entry.model)
            }
            let record = type.init()
            let home = try entry.state == .inserted ? nil : store ?? ModelStore.resolve(ObjectIdentifier(type), modelName: schema.modelName)
            record.__schema = schema
            record.__values = values
            record.__baseline = baseline
            record.__isPersisted = entry.state != .inserted
            record.__home = home
            made.append(record)
        }
        for (entry, record) in zip(file.records, made) {
            for link in entry.links ?? [] {
                guard made.indices.contains(link.record), let schema = record._attachedSchema, schema.columns.indices.contains(link.slot), link.slot > 0
                else { throw invalid("a link names no record of the file", model: entry.model) }
                guard let linked = made[link.record]._attachedSchema, try Self.isForeignKey(link.slot, of: schema, to: linked) else {
                    throw invalid(
                        "a link names column \(schema.columns[link.slot].name), which is not a foreign key to \(made[link.record]._attachedSchema?.modelName ?? "?")",
                        model: entry.model)
                }
                if link.inverse == true {
                    record._linkInverse(made[link.record], slot: link.slot)
                } else {
                    record._linkParent(made[link.record], slot: link.slot)
                }
            }
        }
        for (entry, record) in zip(file.records, made) {
            guard let schema = record._attachedSchema else { continue }
            try join(record, schema: schema)
            if entry.state == .deleted { state.withLock { $0.track(record, deleted: true) } }
        }
    }

    /// Whether `slot` of `schema` is a foreign key to `parent`: a `@BelongsTo` of `schema`,
    /// or the key of a `@HasMany`/`@HasOne` of `parent`.
    static func isForeignKey(_ slot: Int, of schema: ModelSchema, to parent: ModelSchema) throws -> Bool {
        do {
            if try schema.relations().contains(where: { $0.kind == .belongsTo && $0.foreignKey == slot && $0.target === parent }) {
                return true
            }
            return try parent.relations().contains {
                ($0.kind == .hasMany || $0.kind == .hasOne) && $0.foreignKey == slot && $0.target === schema
            }
        } catch {
            throw ContextError(.invalidFile, model: schema.modelName, message: "the model's relations do not resolve: \(error)")
        }
    }
}
