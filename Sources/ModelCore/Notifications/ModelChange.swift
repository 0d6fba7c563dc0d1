import Foundation

/// One committed change to a store: what happened, to which model and record.
///
/// Delivered after commit (never for work that rolled back), both as a
/// `NotificationCenter` post named ``Foundation/Notification/Name/modelDidChange``
/// (`object` is the record instance; `userInfo["change"]` this value) and through
/// ``ModelNotifications/changes()``.
///
/// `ModelChange` is `Sendable`: it carries a snapshot of the saved values, not the
/// instance. ``record(as:)`` rebuilds a detached copy where an instance is wanted.
public struct ModelChange: Sendable, CustomStringConvertible {
    /// What happened.
    public enum Action: String, Sendable, Hashable {
        case insert, update, delete
        /// A bulk delete: one event for ``ModelChange/count`` rows, none per row.
        case deleteAll
        /// A bulk update (`updateAll`): one event for ``ModelChange/count`` rows, naming
        /// the ``ModelChange/changedColumns``.
        case updateAll
    }

    /// What happened.
    public let action: Action
    /// The model's schema (names, columns).
    public let schema: ModelSchema
    /// The record's id (`null` for bulk actions).
    public let id: ModelValue
    /// The record's values after the change (before it, for a delete); empty for bulk.
    public let values: [ModelValue]
    /// For updates, the names of the columns that changed.
    public var changedColumns: [String] { changedSlots.map { schema.columnNames[$0] } }
    /// For updates, the row indexes of the columns that changed (the names are made only
    /// when asked for: a save does not allocate them).
    package let changedSlots: [Int]
    /// Rows affected (1, or the bulk count).
    public let count: Int
    package let modelType: ObjectIdentifier
    /// The store the change was committed to (set when it is published).
    public internal(set) var store: ObjectIdentifier?
    /// Whether the change was committed by another party — rows a sync pull brought, another
    /// process's commit — rather than through SwiftModel's own writes.
    public internal(set) var isExternal = false

    package init(
        action: Action, schema: ModelSchema, modelType: ObjectIdentifier, id: ModelValue, values: [ModelValue],
        changedSlots: [Int] = [], count: Int = 1
    ) {
        self.action = action
        self.schema = schema
        self.modelType = modelType
        self.id = id
        self.values = values
        self.changedSlots = changedSlots
        self.count = count
    }

    /// The model's name (`"Todo"`).
    public var modelName: String { schema.modelName }

    /// Whether this change is about `type`.
    public func isAbout<M: Model>(_ type: M.Type) -> Bool { modelType == ObjectIdentifier(type) }

    /// Whether the change was committed to `store`.
    public func isIn(_ store: any PersistenceAdapter) -> Bool { self.store == ObjectIdentifier(store) }

    /// A change another party committed to a row of `schema` (a sync pull, another
    /// process), for ``CommitBus/publishExternal(_:schemas:store:)``: `values` is the row
    /// as now stored (empty for a delete when unknown).
    package static func external(_ action: Action, schema: ModelSchema, id: ModelValue, values: [ModelValue]) -> ModelChange {
        var change = ModelChange(
            action: action, schema: schema, modelType: schema.modelType.map { ObjectIdentifier($0) } ?? ObjectIdentifier(schema),
            id: id, values: values, changedSlots: action == .update ? Array(1..<max(1, values.count)) : [])
        change.isExternal = true
        return change
    }

    /// A new, detached instance holding the snapshot, or nil when the change is about
    /// another model or is a bulk delete.
    public func record<M: Model>(as type: M.Type) -> M? {
        guard isAbout(type), !values.isEmpty else { return nil }
        let record = M()
        record.__schema = schema
        record.__values = values
        record.__baseline = values
        record.__isPersisted = action != .delete
        return record
    }

    /// The snapshot as a name → value dictionary.
    public var attributes: [String: ModelValue] {
        Dictionary(uniqueKeysWithValues: zip(schema.columns.map(\.name), values))
    }

    public var description: String {
        switch action {
        case .deleteAll, .updateAll: "\(modelName) \(action.rawValue) (\(count))"
        case .insert, .update, .delete: "\(modelName) \(action.rawValue) id \(id)"
        }
    }
}

extension Notification.Name {
    /// Posted after each committed insert, update, delete and bulk delete.
    ///
    /// Posting costs about a microsecond per change on Linux, more than the rest of a
    /// save, so it starts the first time a program names `.modelDidChange` (to observe
    /// it), unless ``ModelNotifications/postsToNotificationCenter`` was set explicitly.
    public static var modelDidChange: Notification.Name {
        ModelNotifications.noteCenterInterest()
        return ModelNotifications.centerName
    }
}
