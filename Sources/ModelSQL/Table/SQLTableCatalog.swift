import ModelCore
import Synchronization

/// The tables an adapter has prepared and every caller may use, by schema identity, and
/// which schema owns each table name (two models may not share one table).
///
/// Tables prepared inside a transaction are not here until it commits: they live on the
/// transaction's ``SQLTransactionLevels`` (their DDL is its own until then, and is undone
/// with a rolled-back level).
///
/// Thread-safe: the maps are a `Locked` value. ``table(for:)``, on the path of every call,
/// takes no lock: it reads an immutable snapshot of the tables through an atomic pointer
/// (see ``Snapshot``).
package final class SQLTableCatalog: Sendable {
    private struct State {
        var tables: [ObjectIdentifier: SQLTable] = [:]
        var owners: [String: ObjectIdentifier] = [:]
        /// Every snapshot published, kept until the catalog goes: a reader may still be
        /// searching one it loaded when the next is published. One per publish, and
        /// tables are published a few times per store.
        var snapshots: [Snapshot] = []
    }

    /// The published tables by their schema's address (see ``AddressTable``); the locked
    /// dictionary it replaces cost a lock and a SipHash of the key, about 320 instructions
    /// per call, and a binary search over the sorted addresses about 60.
    private final class Snapshot: Sendable {
        let tables: [SQLTable]
        let index: AddressTable

        init(_ tables: [ObjectIdentifier: SQLTable]) {
            self.tables = Array(tables.values)
            index = AddressTable(self.tables.map { UInt(bitPattern: ObjectIdentifier($0.schema)) })
        }

        func table(for key: UInt) -> SQLTable? { index.position(of: key).map { tables[$0] } }
    }

    private let state = Locked(State())
    /// The newest of `state.snapshots` (unretained: the list keeps it alive).
    private let published = Atomic<Unmanaged<Snapshot>?>(nil)

    package init() {}

    /// The prepared table of `schema`, if any (the hot path of every call).
    ///
    /// The snapshot is read at +0 (`_withUnsafeGuaranteedRef`): the list of snapshots keeps
    /// it alive, and retaining and releasing it cost two atomic operations on every call.
    @inline(__always) package func table(for schema: ModelSchema) -> SQLTable? {
        guard let snapshot = published.load(ordering: .acquiring) else { return nil }
        let key = UInt(bitPattern: ObjectIdentifier(schema))
        return snapshot._withUnsafeGuaranteedRef { $0.table(for: key) }
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
            let snapshot = Snapshot(state.tables)
            state.snapshots.append(snapshot)
            published.store(Unmanaged.passUnretained(snapshot), ordering: .releasing)
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
