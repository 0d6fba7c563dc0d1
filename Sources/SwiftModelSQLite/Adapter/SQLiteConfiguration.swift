/// How ``SQLiteAdapter`` opens and tunes its database.
///
/// ```swift
/// var configuration = SQLiteConfiguration()
/// configuration.readerCount = 8
/// configuration.synchronous = .normal    // faster commits; a power cut may lose the last ones
/// let store = try SQLiteAdapter(path: "app.sqlite", configuration: configuration)
/// ```
public struct SQLiteConfiguration: Sendable, Hashable {
    /// SQLite's journal modes (`PRAGMA journal_mode`).
    public enum JournalMode: String, Sendable, Hashable {
        /// Write-ahead log: readers never block the writer nor each other (the default).
        case wal = "WAL"
        /// The classic rollback journal, deleted after each transaction.
        case delete = "DELETE"
        /// The rollback journal, truncated rather than deleted.
        case truncate = "TRUNCATE"
    }

    /// When SQLite waits for the disk (`PRAGMA synchronous`).
    public enum Synchronous: String, Sendable, Hashable {
        /// Committed transactions survive a process crash but may be lost on power loss.
        case normal = "NORMAL"
        /// Committed transactions survive power loss (the default).
        case full = "FULL"
    }

    /// The journal mode; `.wal` unless set. In-memory databases ignore it.
    public var journalMode: JournalMode = .wal
    /// Durability of commits; `.full` unless set.
    public var synchronous: Synchronous = .full
    /// How long a statement waits for another connection's lock before failing with
    /// ``SQLiteError/Kind/busy``, in milliseconds (default 5,000).
    public var busyTimeoutMilliseconds: Int = 5_000
    /// Read-only connections serving reads outside transactions, concurrently with the
    /// writer (WAL file databases only; default 4). `0` routes everything through the
    /// writer.
    public var readerCount: Int = 4
    /// Whether SQLite enforces foreign keys (`PRAGMA foreign_keys`, default `true`).
    public var foreignKeys: Bool = true
    /// How `Date` columns are stored unless a column declares its own
    /// (``ColumnOptions/dateStorage(_:)``): `.secondsSinceReferenceDate` (REAL, exact) unless
    /// set. Set it to `.secondsSince1970`, `.millisecondsSince1970` or `.text` to map
    /// tables other tools wrote (see ``DateStorage``).
    public var dateStorage: DateStorage = .secondsSinceReferenceDate
    /// Whether every statement is logged with its duration, to ``ModelLog`` subsystem
    /// `"sqlite"` at `.debug` (default `false`; also enable that level:
    /// `ModelLog.setLevel(.debug, for: "sqlite")`).
    ///
    /// ```
    /// 2026-11-22T10:15:03.120Z [sqlite] debug: SELECT * FROM "todos" WHERE "id" = ? (0.012 ms) bound=1
    /// ```
    public var logsStatements: Bool = false
    /// Whether logged statements show their bound values inline (default `false`: values
    /// may be personal data, so only their count is logged).
    public var logsBoundValues: Bool = false
    /// The name of a registered SQLite VFS to open the database through
    /// (`sqlite3_vfs_register`), for encryption, compression or fault-injection layers;
    /// `nil` (the default) uses SQLite's default VFS.
    public var vfs: String?

    /// The defaults: WAL, `synchronous = FULL`, 5 s busy timeout, 4 readers, foreign keys on.
    public init() {}
}
