import Foundation
import ModelSQL
import SwiftModelCSQLite
import Synchronization

/// The production adapter: models in an ordinary SQLite database file, through the
/// system `libsqlite3`.
///
/// ```swift
/// import SQLiteAdapter
///
/// let store = try SQLiteAdapter(path: "todos.sqlite")
/// ModelStore.setDefault(store)
/// try Todo.create(["name": "walk the dog"])
/// let open = try Todo.where(\.done == false).order(by: \.due).all()
/// ```
///
/// Tables are created from the model schemas on first use (or by ``prepare(_:)``), with
/// real column types, `NOT NULL`, defaults, foreign keys and indexes; a table missing a
/// newly declared column gets it added. Queries compile to one SQL statement with bound
/// parameters. See `Docs/SQLite.md`.
///
/// ## Threading
/// One **writer** connection, guarded by a ``StoreLock``, runs every write and every
/// transaction; a transaction owns the lock until it ends, so writers are serialised.
/// Reads outside a transaction go to a pool of read-only connections
/// (``SQLiteConfiguration/readerCount``) and run concurrently with the writer, seeing the
/// last committed state (WAL snapshot isolation). Reads made inside a transaction (its
/// ``TransactionHandle`` is active for the caller) go to the writer and see its changes.
public final class SQLiteAdapter: PersistenceAdapter, SQLStore, @unchecked Sendable {
    /// This adapter's settings: ``SQLiteConfiguration``.
    public typealias Configuration = SQLiteConfiguration

    // @unchecked Sendable: `writer` and `levels` are only touched while holding (or owning)
    // `writerLock`; `catalog`, `readers` and `openReadBlocks` are Sendable; the rest is
    // immutable.

    /// The database file's path (`":memory:"` for an in-memory database).
    public let path: String
    /// The settings it was opened with.
    public let configuration: SQLiteConfiguration

    let writerLock = StoreLock()
    let writer: SQLiteConnection
    let readers: ReaderPool?
    /// The writer's open transaction levels, with the tables prepared at each.
    let levels = SQLTransactionLevels()
    /// How many ``read(_:)`` blocks are open (a fast gate for the task-local lookup in
    /// `reading`/`writing`).
    let openReadBlocks = Atomic<Int>(0)
    /// The prepared tables every connection sees.
    package let catalog = SQLTableCatalog()
    /// The dialect of the shared SQL (``SQLStore``).
    package var dialect: SQLiteDialect { .shared }

    /// Opens (creating if needed) the database at `path`.
    ///
    /// - Throws: ``SQLiteError`` when the file cannot be opened or is not a database
    ///   (`.corrupt`), leaving the file untouched.
    public init(path: String, configuration: SQLiteConfiguration = SQLiteConfiguration()) throws {
        self.path = path
        self.configuration = configuration
        writer = try SQLiteConnection(path: path, readOnly: false, vfs: configuration.vfs)
        try Self.configure(writer, configuration, writable: true)
        let isFile = path != ":memory:" && !path.isEmpty && !path.hasPrefix("file::memory:")
        if isFile, configuration.journalMode == .wal, configuration.readerCount > 0 {
            var connections: [SQLiteConnection] = []
            for _ in 0..<configuration.readerCount {
                let reader = try SQLiteConnection(path: path, readOnly: true, vfs: configuration.vfs)
                try Self.configure(reader, configuration, writable: false)
                connections.append(reader)
            }
            readers = ReaderPool(connections)
        } else {
            readers = nil
        }
    }

    /// Opens the database at a file URL.
    public convenience init(url: URL, configuration: SQLiteConfiguration = SQLiteConfiguration()) throws {
        try self.init(path: url.path, configuration: configuration)
    }

    /// A private in-memory database (gone when the adapter is released), for tests and
    /// caches.
    public convenience init() throws {
        try self.init(path: ":memory:")
    }

    private static func configure(_ db: SQLiteConnection, _ configuration: SQLiteConfiguration, writable: Bool) throws {
        sqlite3_busy_timeout(db.handle, Int32(clamping: configuration.busyTimeoutMilliseconds))
        if configuration.logsStatements { StatementLog.register(on: db.handle, boundValues: configuration.logsBoundValues) }
        // Reading the schema proves the file is a database before anything is written.
        _ = try db.scalar("SELECT count(*) FROM sqlite_master")
        try db.execute("PRAGMA foreign_keys = \(configuration.foreignKeys ? "ON" : "OFF")")
        guard writable else { return }
        _ = try db.scalar("PRAGMA journal_mode = \(configuration.journalMode.rawValue)")
        try db.execute("PRAGMA synchronous = \(configuration.synchronous.rawValue)")
    }

    // MARK: Connections

    /// Runs `body` on the writer, holding the writer lock.
    ///
    /// - Throws: ``StoreError`` `.invalidRequest` after ``close()``, or for a write inside
    ///   ``read(_:)``.
    @inline(__always) func writing<R>(_ body: (SQLiteConnection) throws -> R) throws -> R {
        writerLock.lock()
        defer { writerLock.unlock() }
        guard !writer.isClosed else { throw closedError() }
        if isReadingSnapshot { throw writeInsideReadError() }
        return try body(writer)
    }

    /// Runs `body` on the writer for schema work (table creation), which a ``read(_:)``
    /// block may need before its first read.
    func preparing<R>(_ body: (SQLiteConnection) throws -> R) throws -> R {
        writerLock.lock()
        defer { writerLock.unlock() }
        guard !writer.isClosed else { throw closedError() }
        return try body(writer)
    }

    /// Runs `body` on a reader, or on the writer inside a transaction (or when there are
    /// no readers); inside ``read(_:)``, on that block's connection.
    @inline(__always) package func reading<R>(_ body: (SQLiteConnection) throws -> R) throws -> R {
        if openReadBlocks.load(ordering: .relaxed) > 0, let snapshot = ReadSnapshot.current, snapshot.owner === self {
            return try snapshot.lock.withLock { try body(snapshot.connection) }
        }
        if let readers, !writerLock.isOwnedHere {
            return try readers.withReader(closed: closedError, body)
        }
        return try writing(body)
    }

    func closedError() -> StoreError { .closed("SQLite store at \(path)") }

    func writeInsideReadError() -> StoreError {
        StoreError(.invalidRequest, table: "", message: "a write inside read { } (use transaction { } to write)")
    }

    // MARK: Tables

    /// Creates or migrates storage for `schema` (and the tables its foreign keys refer
    /// to): `CREATE TABLE IF NOT EXISTS`, indexes, and `ALTER TABLE ADD COLUMN` for
    /// declared columns the table lacks. Idempotent; cheap after the first call.
    public func prepare(_ schema: ModelSchema) throws {
        _ = try table(for: schema)
    }

    /// The table of `schema`, preparing it on first use (on the writer; inside a
    /// transaction the new table is the transaction's until it commits).
    @inline(__always) package func table(for schema: ModelSchema) throws -> SQLTable {
        if let table = catalog.table(for: schema) { return table }
        return try preparing { db in
            // A table prepared inside the open transaction is its own until the commit:
            // each later write in it finds the table here, without the preparation path.
            if let table = levels.pending(schema) { return table }
            return try catalog.prepare(schema, on: db, dialect: dialect, dates: configuration.dateStorage, levels: levels)
        }
    }

    /// Runs a write on the writer (the tables are not needed: the model layer announces
    /// SQLite's changes).
    @inline(__always) package func writing<R>(_ tables: @autoclosure () -> [String], _ body: (SQLiteConnection) throws -> R) throws -> R {
        try writing(body)
    }
}
