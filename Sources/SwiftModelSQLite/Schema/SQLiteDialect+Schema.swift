import ModelSQL

extension DateStorage {
    /// The SQLite column type of this storage.
    var sqliteType: String {
        switch self {
        case .millisecondsSince1970: "INTEGER"
        case .text: "TEXT"
        default: "REAL"
        }
    }
}

/// SQLite's spelling of tables (``SQLTableDDL``, ``SQLTable``): its column affinities,
/// `AUTOINCREMENT` ids (never reused), plain literals, no foreign-key indexes (SQLite
/// builds automatic ones), the last insert rowid for generated ids, and dates bound as
/// seconds since 2001.
extension SQLiteDialect: SQLSchemaDialect {
    package func columnType(_ type: ColumnType, dates: DateStorage?) -> String { dates?.sqliteType ?? type.sqliteType }

    package func primaryKey(autoIncrement: Bool) -> String { autoIncrement ? " PRIMARY KEY AUTOINCREMENT" : " NOT NULL PRIMARY KEY" }

    package func defaultLiteral(_ value: ModelValue, columnType: String) -> String? { Self.literal(value) }

    package var indexesForeignKeys: Bool { false }
    package var maxIdentifierBytes: Int? { nil }
    package var returnsInsertedIDs: Bool { false }
    package var boundDateStorage: DateStorage? { .secondsSinceReferenceDate }
}
