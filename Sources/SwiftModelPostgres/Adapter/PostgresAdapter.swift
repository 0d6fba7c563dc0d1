import Foundation
import ModelSQL
import Synchronization

/// Models in a PostgreSQL database, through the system `libpq`.
///
/// ```swift
/// import PostgresAdapter
///
/// let store = try PostgresAdapter(PostgresConfiguration("postgresql://app@localhost/app"))
/// ModelStore.setDefault(store)
/// try Todo.create(["name": "walk the dog"])
/// let open = try Todo.where(\.done == false).order(by: \.due).all()
/// ```
///
/// Tables are created from the model schemas on first use (or by ``prepare(_:)``) with
/// real types, `NOT NULL`, defaults, foreign keys and indexes; a table missing a newly
/// declared column gets it added. Queries compile to one statement with `$n` parameters,
/// prepared once per connection; values travel in binary. See `Docs/PostgreSQL.md`.
///
/// ## Threading
/// Calls may come from any number of threads. Each call borrows a connection from a
/// pool (``PostgresConfiguration/maximumConnections``) for its duration. A transaction
/// pins one connection to its ``TransactionHandle``: every call made inside it (from its
/// body, or from any isolation while the handle is active) runs on that connection, one at
/// a time, and sees the transaction's changes; other callers keep using other
/// connections, isolated by PostgreSQL (`READ COMMITTED`).
/// Reads outside transactions go to a replica when replicas are configured.
public final class PostgresAdapter: PersistenceAdapter, SQLStore, @unchecked Sendable {
    /// This adapter's settings: ``PostgresConfiguration``.
    public typealias Configuration = PostgresConfiguration

    // @unchecked Sendable: `catalog` and `pins` are Locked values; the pools, the router,
    // the publisher and the listener are Sendable; the rest is immutable. A `Pin` is only
    // touched holding its `lock`.

    /// The settings it was opened with.
    public let configuration: PostgresConfiguration

    let primary: ConnectionPool
    let router: ReplicaRouter
    /// Open transactions by handle (``TransactionHandle/bits``).
    let pins = Locked<[UInt: Pin]>([:])
    /// How many transactions are open (a fast gate for the `pins` lookup).
    let openTransactions = Atomic<Int>(0)
    /// The prepared tables every connection sees.
    package let catalog = SQLTableCatalog()
    /// The dialect of the shared SQL (``SQLStore``).
    package var dialect: PostgresDialect { .shared }
    /// Identifies this adapter's notifications, so it ignores its own.
    let token = UUID().uuidString
    /// The schema its tables live in (the configured one, else the server's
    /// `current_schema()`): change notifications name tables qualified by it, so a commit
    /// to `b.notes` never refreshes observers of `a.notes`.
    let namespace: String
    let publisher: ChangePublisher?
    private(set) var listener: ChangeListener?
    /// Ids reserved from each table's sequence for pipelined inserts, not yet used.
    let reservedIDs = Locked<[ObjectIdentifier: IDBlock]>([:])
    /// Drives the async calls' non-blocking I/O (its thread starts on the first one).
    let loop: PGEventLoop

    /// Connects to the primary (and checks the replicas answer), creating the configured
    /// schema when missing.
    ///
    /// - Throws: ``PostgresError`` `.connection` when a server cannot be reached.
    public init(_ configuration: PostgresConfiguration = PostgresConfiguration()) throws {
        self.configuration = configuration
        loop = try PGEventLoop()
        let session = configuration.session
        func pool(_ conninfo: String, _ role: String) -> ConnectionPool {
            ConnectionPool(
                conninfo: conninfo, session: session, maximum: configuration.maximumConnections,
                acquireTimeout: configuration.acquireTimeout, healthCheckInterval: configuration.healthCheckInterval, role: role)
        }
        if let schema = configuration.schema {
            let connection = try PGConnection(conninfo: configuration.primary, session: PGSession())
            try connection.execute("CREATE SCHEMA IF NOT EXISTS \(SQLText.quote(schema))")
            connection.close()
        }
        primary = pool(configuration.primary, "primary")
        _ = try primary.with { _ in }
        router = ReplicaRouter(
            replicas: configuration.replicas.enumerated().map { pool($0.element, "replica \($0.offset + 1)") },
            readYourWrites: configuration.readYourWrites)
        namespace =
            try configuration.schema ?? primary.with { connection in
                try connection.query("SELECT coalesce(current_schema(), '')::text", []).strings().first ?? ""
            }
        publisher = configuration.publishesChanges ? ChangePublisher(pool: primary, token: token, namespace: namespace) : nil
        if configuration.listensForChanges, let server = configuration.listenerServer {
            listener = ChangeListener(conninfo: server, session: configuration.directSession, token: token) { [weak self] tables in
                self?.externalChange(tables)
            }
        }
    }

    /// Closes the store: stops listening and publishing, waits until the calls and
    /// transactions in flight on other threads have returned their connections, and closes
    /// every connection. Later calls throw ``StoreError`` `.closed`; closing again does
    /// nothing.
    ///
    /// - Throws: ``StoreError`` `.invalidRequest` inside one of this store's transactions
    ///   (nothing is closed).
    public func close() throws {
        if pin() != nil { throw StoreError(.invalidRequest, table: "", message: "close() inside a transaction") }
        listener?.stop()
        publisher?.stop()
        primary.close()
        router.close()
        loop.stop()
    }

    deinit {
        listener?.stop()
        publisher?.stop()
        primary.close()
        router.close()
        loop.stop()
    }

    // MARK: Connections

    /// The transaction on this adapter the caller is inside, if any.
    @inline(__always) func pin() -> Pin? {
        guard openTransactions.load(ordering: .acquiring) > 0, TransactionHandle.innermost != nil else { return nil }
        return pins.withLock { pins in TransactionHandle.firstActive { pins[$0] } }
    }

    /// Runs a write on the transaction's connection, or on a pooled primary connection
    /// (then publishes the change and records its WAL position for read-your-writes).
    @inline(__always) package func writing<R>(_ tables: @autoclosure () -> [String], _ body: (PGConnection) throws -> R) throws -> R {
        if let pin = pin() {
            return try pin.lock.withLock {
                let result = try body(pin.connection)
                if publisher != nil { pin.changed.formUnion(tables()) }
                return result
            }
        }
        return try primary.with { connection in
            let result = try body(connection)
            publisher?.publish(tables())
            router.wrote(on: connection)
            return result
        }
    }

    /// Runs a read on the transaction's connection, or on a replica that has replayed
    /// this adapter's writes, or on the primary. A read that fails because its connection
    /// broke is retried once on a fresh connection.
    @inline(__always) package func reading<R>(_ body: (PGConnection) throws -> R) throws -> R {
        if let pin = pin() { return try pin.lock.withLock { try body(pin.connection) } }
        do {
            return try router.read(primary: primary, body)
        } catch let error as PostgresError where error.kind == .connection {
            return try router.read(primary: primary, body)
        }
    }

    // MARK: Tables

    /// Creates or migrates storage for `schema` (and the tables its foreign keys refer
    /// to): `CREATE TABLE IF NOT EXISTS`, indexes, and `ALTER TABLE ADD COLUMN` for
    /// declared columns the table lacks. Idempotent; cheap after the first call.
    public func prepare(_ schema: ModelSchema) throws {
        _ = try table(for: schema)
    }

    /// The table of `schema`, preparing it on first use.
    ///
    /// A table first used inside a transaction is prepared beside it, on another connection
    /// and committed at once (``prepareBeside(_:_:)``): a rollback keeps the table, and no
    /// other caller waits for the transaction to use it. Only when that cannot be done is
    /// it prepared inside the transaction, its own until it commits.
    @inline(__always) package func table(for schema: ModelSchema) throws -> SQLTable {
        if let table = catalog.table(for: schema) { return table }
        if let pin = pin() {
            return try pin.lock.withLock {
                if let table = pin.levels.pending(schema) { return table }
                if let table = try prepareBeside(schema, pin) { return table }
                return try prepareTable(schema, on: pin.connection, levels: pin.levels)
            }
        }
        return try primary.with { connection in try prepareTable(schema, on: connection, levels: nil) }
    }

    /// The schema that owns a table name, if this adapter prepared it.
    func schema(named table: String) -> ModelSchema? { catalog.schema(named: table) }
}

/// An open transaction: its connection, its levels (with the tables created at each, its
/// own until commit) and the tables it changed (published at commit).
///
/// `@unchecked Sendable`: every `var`, the levels and the connection are only used holding
/// `lock` (calls from the transaction's tasks take turns).
final class Pin: @unchecked Sendable {
    let lock = RecursiveLock()
    let connection: PGConnection
    let levels = SQLTransactionLevels()
    var changed: Set<String> = []

    init(_ connection: PGConnection) { self.connection = connection }
}
