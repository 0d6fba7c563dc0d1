/// The requirements of a model: a no-argument initialiser, and optional configuration and
/// lifecycle hooks (all with defaults).
///
/// Declare models with ``Model``, which combines this protocol with the ``ModelObject``
/// storage:
///
/// ```swift
/// final class Todo: Model {
///     @Column var name: String = ""
///     @Column var dueDate: Date?
///     init() {}
///
///     func beforeSave() throws -> Bool {
///         name = name.trimmingCharacters(in: .whitespaces)
///         return !name.isEmpty          // false cancels the save
///     }
/// }
/// ```
///
/// Initialisers that set properties must be `convenience` (or call `super.init()` first),
/// because properties live in the inherited storage:
///
/// ```swift
/// extension Todo {
///     convenience init(name: String) { self.init(); self.name = name }
/// }
/// ```
public protocol ModelProtocol: ModelObject, Codable {
    /// The id's type: `Int64` (assigned by the adapter, the default), `Int`, `UUID`
    /// (generated on first save) or `String` (set by the caller).
    associatedtype IDValue: ModelID = Int64

    /// Makes a record with every column at its default.
    init()

    /// The table name; defaults to the plural snake_case type name (`TaskList` →
    /// `task_lists`, `Person` → `people`; see ``Inflector``).
    static var tableName: String { get }
    /// Whether `created_at` / `updated_at` columns, when declared, are filled in
    /// automatically. Defaults to `true`.
    static var recordsTimestamps: Bool { get }
    /// How records become JSON and dictionaries (keys, exclusions, dates, nested
    /// relations); see ``JSONMapping``. Defaults to stored column names.
    static var jsonMapping: JSONMapping<Self> { get }
    /// Whether SwiftUI and `withObservationTracking` see this model's changes (see
    /// ``ModelObservation``). Defaults to `true`; return `false` for models that are
    /// never shown in observing UI, to skip the cost.
    static var isObservable: Bool { get }
    /// Whether records of this model join the current ``ModelContext`` (its identity map
    /// and unit of work). Defaults to `true`; return `false` for models that should always
    /// load as fresh, unshared instances (log entries, bulk imports, read-only reports).
    static var joinsContexts: Bool { get }
    /// Whether the store keeps a durable history of this model's committed inserts,
    /// updates and deletes (see ``HistoryKeepingAdapter``). Defaults to `false`; a store
    /// that keeps no history refuses to prepare a model that asks for one.
    static var keepsHistory: Bool { get }

    /// Runs before every save; return `false` or throw to cancel it.
    func beforeSave() throws -> Bool
    /// Runs after every successful save.
    func afterSave()
    /// Runs before the first save (after ``beforeSave()``); `false` or throw cancels.
    func beforeCreate() throws -> Bool
    /// Runs after the first save (before ``afterSave()``).
    func afterCreate()
    /// Runs before saving a stored record (after ``beforeSave()``); `false` or throw cancels.
    func beforeUpdate() throws -> Bool
    /// Runs after saving a stored record (before ``afterSave()``).
    func afterUpdate()
    /// Runs before `delete()`; `false` or throw cancels.
    func beforeDelete() throws -> Bool
    /// Runs after a successful `delete()`.
    func afterDelete()
    /// Runs before `destroy()` (which then deletes); `false` or throw cancels.
    func beforeDestroy() throws -> Bool
    /// Runs after a successful `destroy()`.
    func afterDestroy()
    /// Runs before validation (ModelValidation); `false` or throw cancels the save.
    func beforeValidation() throws -> Bool
    /// Runs after validation (ModelValidation).
    func afterValidation()
}

/// A model class: `final class Todo: Model { … }`.
///
/// Combines the ``ModelObject`` storage with the ``ModelProtocol`` requirements.
public typealias Model = ModelObject & ModelProtocol

extension ModelProtocol {
    /// Default: the plural snake_case type name (`Inflector.shared.tableize`).
    public static var tableName: String { Inflector.shared.tableize(String(describing: Self.self)) }
    /// Default: `true`.
    public static var recordsTimestamps: Bool { true }
    /// Default: `true`.
    public static var isObservable: Bool { true }
    /// Default: `true`.
    public static var joinsContexts: Bool { true }
    /// Default: `false`.
    public static var keepsHistory: Bool { false }
    /// Default: proceeds (returns `true`).
    public func beforeSave() throws -> Bool { true }
    /// Default: does nothing.
    public func afterSave() {}
    /// Default: proceeds (returns `true`).
    public func beforeCreate() throws -> Bool { true }
    /// Default: does nothing.
    public func afterCreate() {}
    /// Default: proceeds (returns `true`).
    public func beforeUpdate() throws -> Bool { true }
    /// Default: does nothing.
    public func afterUpdate() {}
    /// Default: proceeds (returns `true`).
    public func beforeDelete() throws -> Bool { true }
    /// Default: does nothing.
    public func afterDelete() {}
    /// Default: proceeds (returns `true`).
    public func beforeDestroy() throws -> Bool { true }
    /// Default: does nothing.
    public func afterDestroy() {}
    /// Default: proceeds (returns `true`).
    public func beforeValidation() throws -> Bool { true }
    /// Default: does nothing.
    public func afterValidation() {}

    /// The model's schema (built on first use, then cached).
    public static var schema: ModelSchema { SchemaRegistry.schema(for: Self.self) }
    /// The model's columns, id first.
    public static var columns: [ColumnDefinition] { schema.columns }
    /// The column with this stored name.
    public static func column(named name: String) -> ColumnDefinition? { schema.column(named: name) }

    /// The record's schema (attached on first use through the static type, no dynamic cast).
    /// Inlined, so a caller that only reads from the schema borrows the record's reference
    /// instead of retaining and releasing it (a save read it twice).
    @inline(__always) package var recordSchema: ModelSchema { __schema ?? _attachSchema(Self.self) }

    /// The record's id: `nil` until first saved (for generated ids) or set.
    ///
    /// Changing the id of a stored record is refused by the next `save()`.
    public var id: IDValue? {
        get {
            if __schema == nil { _ = _attachSchema(Self.self) }
            return IDValue?(modelValue: __values[0]) ?? nil
        }
        set {
            if __schema == nil { _ = _attachSchema(Self.self) }
            _assign(newValue.modelValue, at: 0)
        }
    }
}
