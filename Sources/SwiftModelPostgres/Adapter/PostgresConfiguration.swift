import Foundation
import ModelSQL

/// Where ``PostgresAdapter`` connects and how it pools, routes and publishes.
///
/// ```swift
/// var configuration = PostgresConfiguration("postgresql://app@db.internal/app")
/// configuration.maximumConnections = 16
/// configuration.replicas = ["postgresql://app@replica-1.internal/app"]
/// let store = try PostgresAdapter(configuration)
/// ```
///
/// Connection strings are libpq's: a `postgresql://` URL or `key=value` pairs
/// (`host=/tmp port=5433 dbname=app`). Anything left out comes from libpq's environment
/// variables (`PGHOST`, `PGPORT`, `PGUSER`, `PGPASSWORD`, `PGDATABASE`, …) and defaults.
public struct PostgresConfiguration: Sendable, Hashable {
    /// The isolation level of transactions (`BEGIN ISOLATION LEVEL …`).
    public enum Isolation: String, Sendable, Hashable {
        /// PostgreSQL's default: each statement sees what committed before it started.
        /// A read-modify-write of the same row in two concurrent transactions can lose an
        /// update; use `.serializable` (or raw `SELECT … FOR UPDATE`) where that matters.
        case readCommitted = "READ COMMITTED"
        /// One snapshot for the whole transaction; a conflicting concurrent update fails
        /// with ``PostgresError/Kind/transactionConflict``.
        case repeatableRead = "REPEATABLE READ"
        /// Transactions behave as if run one at a time; one that cannot fails with
        /// ``PostgresError/Kind/transactionConflict`` and should be retried.
        case serializable = "SERIALIZABLE"
    }

    /// The primary server's connection string (empty: libpq's environment and defaults).
    public var primary: String
    /// Read replicas (hot standbys) for reads outside transactions; empty for none.
    public var replicas: [String] = []
    /// The schema the tables live in (`search_path`), created when missing; nil for the
    /// server's default (`public`).
    public var schema: String?
    /// The most connections each pool (the primary's, each replica's) opens; 8 unless set.
    public var maximumConnections = 8
    /// How long a call waits for a free connection before ``PostgresError`` `.poolTimeout`.
    public var acquireTimeout: Duration = .seconds(10)
    /// A pooled connection idle longer than this is pinged before it is lent (a connection
    /// broken while idle is replaced instead of failing the call).
    public var healthCheckInterval: Duration = .seconds(30)
    /// The server-side `statement_timeout` for every statement; nil for the server's
    /// setting. A statement running longer fails with ``PostgresError`` `.cancelled`.
    public var statementTimeout: Duration?
    /// The isolation level of transactions; `.readCommitted` unless set.
    public var isolation: Isolation = .readCommitted
    /// After this adapter writes, its reads go to the primary until a replica has replayed
    /// that write (compared by WAL position), so a caller always reads its own writes.
    /// `true` unless set; `false` lets reads lag behind writes by the replication delay.
    public var readYourWrites = true
    /// Writes publish the tables they change with `NOTIFY swiftmodel_changes` (delivered at
    /// commit), so other processes' observers refresh. `true` unless set.
    public var publishesChanges = true
    /// Listens on `swiftmodel_changes` with a dedicated connection and refreshes this
    /// process's query observers when another process commits a change. `true` unless set.
    public var listensForChanges = true
    /// How date columns without their own `.dateStorage` are stored: nil (the default) for
    /// `timestamptz`, to the microsecond; or one of the numeric/text ``DateStorage`` forms
    /// for an exact `Date` round trip.
    public var dateStorage: DateStorage?
    /// Set when ``primary`` (and the replicas) is a connection pooler in **transaction**
    /// pooling mode — PgBouncer's `pool_mode = transaction` and the like — which lends each
    /// transaction, and each statement outside one, whichever server connection is free.
    /// `false` unless set. Then:
    /// - statements are sent unnamed (parsed with each execution) instead of prepared once
    ///   per connection, since the pooler does not keep named statements across
    ///   transactions;
    /// - ``schema`` and ``statementTimeout`` are applied per transaction
    ///   (`set_config(…, true)`, sent in the same round trip as each statement outside a
    ///   transaction and with each `BEGIN`), never as session settings, which would stay on
    ///   a server connection other clients get next;
    /// - change notifications are listened for on ``listenConnection`` (a pooler in
    ///   transaction mode cannot hold a `LISTEN`); without it this adapter does not hear
    ///   other processes' changes.
    /// See `Docs/PostgreSQL.md` ("Behind PgBouncer").
    public var transactionPooling = false
    /// The connection string `LISTEN` uses, when it must differ from ``primary``: the
    /// server itself when ``primary`` is a transaction pooler. nil: ``primary``, or no
    /// listening behind a transaction pooler.
    public var listenConnection: String?

    /// A configuration for the server at `primary` (a libpq connection string or URL).
    public init(_ primary: String = "") {
        self.primary = primary
    }

    /// A configuration from discrete settings.
    public init(host: String, port: Int = 5432, database: String, user: String? = nil, password: String? = nil) {
        var pairs = [("host", host), ("port", String(port)), ("dbname", database)]
        if let user { pairs.append(("user", user)) }
        if let password { pairs.append(("password", password)) }
        self.init(pairs.map { "\($0.0)=\(Self.quoted($0.1))" }.joined(separator: " "))
    }

    /// A `key=value` value quoted for a libpq connection string.
    static func quoted(_ value: String) -> String {
        "'" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }

    /// The statements run on every new connection straight to the server.
    var sessionSetup: [String] {
        var statements = ["SET client_min_messages = warning", "SET TIME ZONE 'UTC'"]
        if let schema { statements.append("SET search_path TO \(SQLText.quote(schema))") }
        if let milliseconds = statementTimeoutMilliseconds { statements.append("SET statement_timeout = \(milliseconds)") }
        return statements
    }
}
