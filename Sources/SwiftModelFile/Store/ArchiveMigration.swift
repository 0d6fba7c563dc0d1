/// One step of a model's archive history: turns records written by the previous schema
/// version into records of `version`.
///
/// Steps run in version order, only on files older than their version. Columns the model
/// no longer has are dropped afterwards and new columns get their defaults, so steps are
/// only needed for what that cannot express: renames, splits, changed meanings.
///
/// ```swift
/// try store.register(Todo.self, version: 3, migrations: [
///     ArchiveMigration(to: 2) { record in record.rename("title", to: "name") },
///     ArchiveMigration(to: 3) { record in
///         let minutes = record["estimate_hours"]?.intValue.map { $0 * 60 } ?? 0
///         record["estimate_minutes"] = .int(minutes)
///     },
/// ])
/// ```
public struct ArchiveMigration: Sendable {
    /// The schema version records have after this step.
    public let version: Int
    let body: @Sendable (inout ArchivedRecord) throws -> Void

    /// A step producing `version` records.
    public init(to version: Int, _ body: @escaping @Sendable (inout ArchivedRecord) throws -> Void) {
        self.version = version
        self.body = body
    }
}

/// A record as an archive stores it, by column name, while migrations run.
public struct ArchivedRecord: Sendable, Equatable {
    /// The stored values by column name (a column stored as nil maps to `.null`; a column
    /// the record has no key for is absent).
    public var values: [String: ModelValue]

    /// Creates a record from stored values.
    public init(_ values: [String: ModelValue]) { self.values = values }

    /// The value stored for `column`, `nil` when there is none; assigning `nil` removes it.
    public subscript(column: String) -> ModelValue? {
        get { values[column] }
        set { values[column] = newValue }
    }

    /// Moves a column's value to a new name (nothing happens when there is none).
    public mutating func rename(_ column: String, to newName: String) {
        if let value = values.removeValue(forKey: column) { values[newName] = value }
    }
}
