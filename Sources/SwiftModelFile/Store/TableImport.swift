import SwiftModelArray

/// A model's archive settings: its schema version and the steps that bring older records
/// up to it.
struct ArchiveRegistration: Sendable {
    let schema: ModelSchema
    let version: Int
    let migrations: [ArchiveMigration]

    init(schema: ModelSchema, version: Int = 1, migrations: [ArchiveMigration] = []) {
        self.schema = schema
        self.version = version
        self.migrations = migrations.sorted { $0.version < $1.version }
    }
}

/// Turns an archived table into rows of a model's schema: runs the migrations the file
/// needs, matches columns by name (extra ones are dropped, missing ones get their
/// defaults), and checks every value against its column, casting where the rules allow
/// (an `Int` stored for a `Double` column, say).
enum TableImport {
    static func rows(from table: ArchivedTable, for registration: ArchiveRegistration, path: String)
        throws(ArchiveError) -> [[ModelValue]]
    {
        let schema = registration.schema
        func failure(_ kind: ArchiveError.Kind, column: String? = nil, _ message: String) -> ArchiveError {
            ArchiveError(kind, path: path, table: schema.tableName, column: column, message: message)
        }
        guard table.version <= registration.version else {
            throw failure(
                .newerVersion,
                "the file has schema version \(table.version); \(schema.modelName) is registered as version \(registration.version)")
        }
        var table = table
        let steps = registration.migrations.filter { $0.version > table.version }
        if !steps.isEmpty { table = try migrate(table, steps: steps, failure: failure) }

        let sources = schema.columns.map { column in table.columns.firstIndex(of: column.name) }
        var rows: [[ModelValue]] = []
        rows.reserveCapacity(table.records.count)
        for (index, record) in table.records.enumerated() {
            let absent = table.absent[index] ?? []
            var row: [ModelValue] = []
            row.reserveCapacity(schema.columns.count)
            for column in schema.columns {
                guard let source = sources[column.index], absent.isEmpty || !absent.contains(source) else {
                    guard column.index != 0 else { throw failure(.invalidValue, column: column.name, "record \(index) has no id") }
                    row.append(column.defaultValue.makeValue())
                    continue
                }
                let stored = record[source]
                var value = stored
                if !fits(stored, column) {
                    do {
                        value = try Caster.cast(stored, to: column.castTarget)
                    } catch {
                        throw failure(
                            .invalidValue, column: column.name,
                            "record \(index)\(describeID(record, sources)): \(stored.debugDescription) does not fit \(column.castTarget): \(error.reason)")
                    }
                }
                guard column.accepts(value) else {
                    throw failure(
                        .invalidValue, column: column.name,
                        "record \(index)\(describeID(record, sources)): \(stored.debugDescription) is out of range for the property's type")
                }
                // NaN and dates outside ModelValue.dateRange are refused on load as on save.
                if let reason = value.unstorableReason {
                    throw failure(.invalidValue, column: column.name, "record \(index)\(describeID(record, sources)): \(reason)")
                }
                row.append(value)
            }
            guard !row[0].isNull else { throw failure(.invalidValue, column: schema.idColumn.name, "record \(index) has a nil id") }
            rows.append(row)
        }
        return rows
    }

    /// Whether a stored value already has the column's kind (the common case: no cast).
    @inline(__always) private static func fits(_ value: ModelValue, _ column: ColumnDefinition) -> Bool {
        switch (value, column.type) {
        case (.null, _): column.isOptional
        case (.string, .string), (.string, .text), (.int, .int), (.double, .double), (.bool, .bool), (.date, .date),
            (.data, .data), (.uuid, .uuid):
            true
        case (.array, .array), (.dictionary, .dictionary): column.elementType == nil
        default: false
        }
    }

    private static func describeID(_ record: [ModelValue], _ sources: [Int?]) -> String {
        guard let source = sources.first ?? nil else { return "" }
        return " (id \(record[source]))"
    }

    /// Runs migration steps over every record, by column name.
    private static func migrate(
        _ table: ArchivedTable, steps: [ArchiveMigration],
        failure: (ArchiveError.Kind, String?, String) -> ArchiveError
    ) throws(ArchiveError) -> ArchivedTable {
        var migrated: [ArchivedRecord] = []
        migrated.reserveCapacity(table.records.count)
        for (index, values) in table.records.enumerated() {
            let absent = table.absent[index] ?? []
            var record = ArchivedRecord([:])
            for (column, name) in table.columns.enumerated() where !absent.contains(column) {
                record.values[name] = values[column]
            }
            for step in steps {
                do {
                    try step.body(&record)
                } catch {
                    throw failure(.migrationFailed, nil, "migration to version \(step.version) failed on record \(index): \(error)")
                }
            }
            migrated.append(record)
        }
        let kept = table.columns.filter { name in migrated.contains { $0.values[name] != nil } }
        var columns = kept
        var known = Set(columns)
        for record in migrated {
            for name in record.values.keys.sorted() where known.insert(name).inserted { columns.append(name) }
        }
        var absent: [Int: [Int]] = [:]
        var records: [[ModelValue]] = []
        records.reserveCapacity(migrated.count)
        for (index, record) in migrated.enumerated() {
            var row: [ModelValue] = []
            row.reserveCapacity(columns.count)
            for (column, name) in columns.enumerated() {
                if let value = record.values[name] {
                    row.append(value)
                } else {
                    row.append(.null)
                    absent[index, default: []].append(column)
                }
            }
            records.append(row)
        }
        var result = table
        result.columns = columns
        result.records = records
        result.absent = absent
        result.version = steps.last?.version ?? table.version
        return result
    }
}

extension FileAdapter {
    /// Puts tables converted by ``TableImport`` into memory. The one thing the memory store
    /// checks that ``TableImport`` does not (it would hash every id twice) is that ids are
    /// unique; a repeated id is the file's fault, so it is an ``ArchiveError``
    /// `.invalidValue` on the id column, and nothing changes. Call with the lock held.
    func install(
        _ replacements: [(schema: ModelSchema, rows: [[ModelValue]], nextID: Int64)], clearingOthers: Bool, from path: String
    ) throws {
        do {
            try memory.replaceContents(replacements, clearingOthers: clearingOthers)
        } catch let error as StoreError where error.kind == .duplicateID {
            let schema = replacements.first { $0.schema.tableName == error.table }?.schema
            throw ArchiveError(
                .invalidValue, path: path, table: error.table, column: schema?.idColumn.name,
                message: "two records share the id \(error.id.map { "\($0)" } ?? "nil")")
        } catch let error as StoreError where error.kind == .uniqueViolation {
            throw ArchiveError(
                .invalidValue, path: path, table: error.table, column: error.column,
                message: "two records share a value of the unique column \(error.column ?? "?") (record \(error.id.map { "\($0)" } ?? "nil"))")
        }
    }
}
