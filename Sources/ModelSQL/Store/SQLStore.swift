import ModelCore

/// A SQL adapter as the shared table layer sees it: a dialect, the table of a schema, and
/// connections lent for a write or a read. The query operations of ``PersistenceAdapter``
/// and raw-SQL model rows are written once on top (`SQLStore+Queries.swift`,
/// `SQLStore+Records.swift`); the per-record ones, which run once per row, are
/// non-generic steps on ``SQLTable`` (`SQLTable+Records.swift`) — a generic extension
/// across modules is not specialised for `package` protocols, and a record write or lookup
/// should not pay for unspecialised generic calls. An adapter's public methods call them.
///
/// What stays the adapter's: how connections are lent (a writer lock, a pool, a pinned
/// transaction, replicas), transactions, change publishing, and the connections' own
/// statement caches.
package protocol SQLStore: PersistenceAdapter {
    associatedtype Connection: SQLConnection
    associatedtype Dialect: SQLSchemaDialect

    /// The dialect the store's statements are compiled in.
    var dialect: Dialect { get }

    /// The prepared table of `schema`, preparing it on first use.
    func table(for schema: ModelSchema) throws -> SQLTable

    /// The tables every caller may use.
    var catalog: SQLTableCatalog { get }

    /// Runs a write on a connection that writes (the caller's transaction's, when it has one);
    /// `tables` names the tables it changes.
    func writing<R>(_ tables: @autoclosure () -> [String], _ body: (Connection) throws -> R) throws -> R

    /// Runs a read on a connection that sees the caller's transaction, when it has one.
    func reading<R>(_ body: (Connection) throws -> R) throws -> R
}

extension SQLStore {
    /// The tables a delete from `schema` may change (for change notifications): its own and
    /// those whose foreign keys point at it.
    package func tablesChangedByDelete(from schema: ModelSchema) -> [String] {
        catalog.tablesChangedByDelete(from: schema)
    }
}
