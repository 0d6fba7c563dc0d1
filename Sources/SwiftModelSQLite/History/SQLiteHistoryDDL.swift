import ModelSQL

/// SQLite's change history: one table, `swiftmodel_history`, filled by triggers on each
/// table whose model keeps history, so every committed write is recorded in its own
/// transaction — a record's save, a bulk update or delete, raw SQL, or another process
/// or tool writing the file.
///
/// `cursor` is an `AUTOINCREMENT` key: SQLite has one writer at a time, so cursors follow
/// commit order, a transaction's entries are consecutive, and a number is never reused
/// (not even after compaction). An update that changes no column records nothing; one
/// that changes the id is recorded as the old id's delete and the new id's insert.
/// `changed` is a JSON array of the changed columns' names; `recorded_at` is seconds
/// since 1970 (for retention only).
enum SQLiteHistoryDDL {
    static let table = "swiftmodel_history"
    /// One row: the cursor below which entries were compacted away.
    static let horizonTable = "swiftmodel_history_horizon"

    /// The history tables.
    static let tables = [
        """
        CREATE TABLE IF NOT EXISTS \(table) (
          cursor INTEGER PRIMARY KEY AUTOINCREMENT,
          table_name TEXT NOT NULL,
          row_id NOT NULL,
          action INTEGER NOT NULL CHECK (action IN (1, 2, 3)),
          changed TEXT,
          recorded_at REAL NOT NULL
        )
        """,
        "CREATE TABLE IF NOT EXISTS \(horizonTable) (singleton INTEGER PRIMARY KEY CHECK (singleton = 1), cursor INTEGER NOT NULL)",
    ]

    /// The triggers' names on `tableName`.
    static func triggerNames(_ tableName: String) -> [String] {
        ["insert", "update", "rekey", "delete"].map { SQLText.quote("swiftmodel_history_\(tableName)_\($0)") }
    }

    /// Drops the table's history triggers, then — for a model that keeps history —
    /// creates the history tables and triggers for its columns as declared now (so a
    /// column added later is tracked once the table is prepared again).
    static func preparation(_ schema: ModelSchema) -> [String] {
        let names = triggerNames(schema.tableName)
        let drops = names.map { "DROP TRIGGER IF EXISTS \($0)" }
        guard schema.keepsHistory, let tableLiteral = SQLText.string(schema.tableName) else { return drops }
        let table = SQLText.quote(schema.tableName)
        let id = SQLText.quote(schema.columns[0].name)
        let now = "(julianday('now') - 2440587.5) * 86400.0"
        func entry(_ row: String, _ action: Int, _ changed: String = "NULL") -> String {
            "INSERT INTO \(Self.table) (table_name, row_id, action, changed, recorded_at) VALUES (\(tableLiteral), \(row), \(action), \(changed), \(now));"
        }
        var triggers = [
            "CREATE TRIGGER \(names[0]) AFTER INSERT ON \(table) BEGIN \(entry("NEW.\(id)", 1)) END",
            "CREATE TRIGGER \(names[2]) AFTER UPDATE OF \(id) ON \(table) WHEN OLD.\(id) IS NOT NEW.\(id) BEGIN \(entry("OLD.\(id)", 3)) \(entry("NEW.\(id)", 1)) END",
            "CREATE TRIGGER \(names[3]) AFTER DELETE ON \(table) BEGIN \(entry("OLD.\(id)", 3)) END",
        ]
        // Columns whose names SQLite text cannot hold (a NUL) are not named in `changed`.
        let tracked = schema.columns.dropFirst().compactMap { column -> (differs: String, name: String)? in
            let quoted = SQLText.quote(column.name)
            guard let name = SQLText.string(jsonString(column.name) + ",") else { return nil }
            return ("OLD.\(quoted) IS NOT NEW.\(quoted)", name)
        }
        if !tracked.isEmpty {
            let differs = tracked.map(\.differs).joined(separator: " OR ")
            let list = tracked.map { "CASE WHEN \($0.differs) THEN \($0.name) ELSE '' END" }.joined(separator: " || ")
            let changed = "'[' || rtrim(\(list), ',') || ']'"
            triggers.append(
                "CREATE TRIGGER \(names[1]) AFTER UPDATE ON \(table) WHEN OLD.\(id) IS NEW.\(id) AND (\(differs)) BEGIN \(entry("NEW.\(id)", 2, changed)) END")
        }
        return drops + tables + triggers
    }

    /// `name` as a JSON string literal.
    static func jsonString(_ name: String) -> String {
        var out = "\""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

extension SQLiteDialect {
    /// SQLite keeps change history (``SQLiteHistoryDDL``).
    package func historyPreparation(_ schema: ModelSchema) -> [String]? { SQLiteHistoryDDL.preparation(schema) }
}
