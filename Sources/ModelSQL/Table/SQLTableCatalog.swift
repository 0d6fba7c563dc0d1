import ModelCore

/// The tables an adapter has prepared and every caller may use, by schema identity, and
/// which schema owns each table name (two models may not share one table).
///
/// Tables prepared inside a transaction are not here until it commits: they live on the
/// transaction's ``SQLTransactionLevels`` (their DDL is its own until then, and is undone
/// with a rolled-back level).
///
/// Thread-safe: the maps are a `Locked` value.
package final class SQLTableCatalog: Sendable {
    private struct State {
        var tables: [ObjectIdentifier: SQLTable] = [:]
        var owners: [String: ObjectIdentifier] = [:]
    }

    private let state = Locked(State())

    package init() {}

    /// The prepared table of `schema`, if any (the hot path of every call).
    @inline(__always) package func table(for schema: ModelSchema) -> SQLTable? {
        state.withLock { $0.tables[ObjectIdentifier(schema)] }
    }

    /// Throws when `schema`'s table name is owned by another schema.
    package func checkOwner(of schema: ModelSchema) throws {
        if let owner = state.withLock({ $0.owners[schema.tableName] }), owner != ObjectIdentifier(schema) {
            throw StoreError.tableTaken(by: schema)
        }
    }

    /// Makes prepared tables visible to every caller (once their DDL committed).
    package func publish(_ tables: [SQLTable]) {
        guard !tables.isEmpty else { return }
        state.withLock { state in
            for table in tables {
                let key = ObjectIdentifier(table.schema)
                state.tables[key] = table
                state.owners[table.schema.tableName] = key
            }
        }
    }

    /// The schema that owns a table name, if it was prepared.
    package func schema(named table: String) -> ModelSchema? {
        state.withLock { state in state.owners[table].flatMap { state.tables[$0]?.schema } }
    }

    /// The names of `schema`'s table and of the prepared tables whose foreign keys point at
    /// it (changed by `ON DELETE CASCADE` / `SET NULL` when one of its rows goes).
    package func tablesChangedByDelete(from schema: ModelSchema) -> [String] {
        state.withLock { state in
            [schema.tableName]
                + state.tables.values.filter { $0.foreignKeys.contains { $0.parent === schema } }.map(\.schema.tableName)
        }
    }
}
