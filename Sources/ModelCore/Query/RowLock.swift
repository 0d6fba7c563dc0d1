/// A lock on the rows a fetch selects, held until the enclosing transaction ends (SQL's
/// `SELECT … FOR UPDATE`), for safe read-modify-write under `READ COMMITTED`: no other
/// transaction can change or lock those rows meanwhile. Set it with
/// `Query.lockForUpdate(_:)`.
public struct RowLock: Sendable, Hashable {
    /// What a fetch does about rows another transaction has locked.
    public enum Wait: Sendable, Hashable {
        /// Waits until they are free (the default).
        case wait
        /// Leaves them out of the result (`SKIP LOCKED`): for work queues.
        case skipLocked
        /// Fails at once (`NOWAIT`) with the adapter's lock error.
        case noWait
    }

    /// What to do about rows locked elsewhere.
    public var wait: Wait

    /// A lock that handles rows locked elsewhere with `wait`.
    public init(wait: Wait = .wait) { self.wait = wait }
}

/// How an adapter honours ``RowLock``.
public enum RowLockSupport: Sendable, Hashable {
    /// Rows are locked one by one (PostgreSQL).
    case rowLevel
    /// Writers are serialised: a transaction owns the whole store until it ends, so the
    /// rows it reads cannot change or be locked by anyone else meanwhile. The lock is
    /// accepted and needs no work; `skipLocked` skips nothing and `noWait` never fails
    /// (SQLite, ArrayAdapter, FileAdapter).
    case serialisedWriters
    /// The adapter cannot lock rows (a remote API): a fetch with a lock is refused with
    /// ``StoreError`` `.invalidRequest` rather than run unlocked.
    case unsupported
}
