/// The groups of checks the suite runs.
public enum ConformanceGroup: String, CaseIterable, Sendable, Hashable {
    /// Insert, find, update, delete, counts, missing rows.
    case crud
    /// Int64, Int, UUID and String ids: generation, explicit ids, duplicates.
    case ids
    /// Every column type stored and read back exactly.
    case roundTrip
    /// SQL-looking strings, quotes, NUL bytes, long strings, keyword column names.
    case hostileValues
    /// The edges of the value types (NaN refused, ±infinity kept, the date range) and
    /// stored rows that do not fit the model (typed ``InvalidStoredValue``, never `0`).
    case limits
    /// Every query operator, with SQL null semantics.
    case operators
    /// Multi-key ordering, ties in store order, nils first.
    case ordering
    /// Limit, offset, first/last, pages.
    case paging
    /// count, sum, avg, min, max, grouping, batch update and delete.
    case aggregates
    /// Parents, children, has-one, through, and every delete rule.
    case relations
    /// `including(…)`, nested.
    case eagerLoading
    /// Store transactions, savepoints, rollback.
    case transactions
    /// Lifecycle hooks and cancellation.
    case hooks
    /// Writes by id without loading (`delete(id:)`, `update(id:set:)`: no hooks) and their
    /// loading forms (`destroy(id:)`, `update(id:) { }`: hooks, rules, validations).
    case writesByID
    /// Validations on save, including uniqueness against the store.
    case validations
    /// Change notifications after commit, none on rollback.
    case notifications
    /// Data survives closing and reopening the store.
    case persistence
    /// Many threads reading and writing at once.
    case concurrency
    /// Contexts: one instance per record on every load path, the unit of work (ordered,
    /// all-or-nothing saves and rollback), child and temporary contexts, files, merges.
    case contexts
    /// The async API: reads, writes, hooks, bulk writes, async transactions and
    /// cancellation, matching the synchronous API (async `run(_:)` only).
    case asyncAPI
    /// A value repeated in a `.unique` column is ``StoreError`` `.uniqueViolation` on insert,
    /// update and batch update, and changes nothing; nulls never collide.
    case uniqueness
    /// `close()` waits for work in flight; then every call is ``StoreError`` `.closed`;
    /// closing twice is harmless, closing inside a transaction is refused.
    case closing
    /// Query observation: the current result, one fresh result per relevant commit, none
    /// for rollbacks or other tables (async `run(_:)` only).
    case observation
    /// Change history (``HistoryKeepingAdapter``): an entry per committed row change in
    /// commit order, none for rollbacks, paging, compaction; a store that keeps none
    /// refuses a model that asks for it.
    case history

    /// Whether the group needs the async `AdapterConformance.run(_:)`.
    public var isAsync: Bool { self == .asyncAPI || self == .observation }
}

/// What an adapter can do, so the suite skips (and reports) what it cannot.
public struct AdapterCapabilities: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Data outlives the adapter instance (requires a `reopen` closure).
    public static let persistence = AdapterCapabilities(rawValue: 1 << 0)
    /// `delete()` of a parent applies the relation's rule in the store itself (cascade,
    /// set null, restrict), as SQL foreign keys do. Without it, `delete()` leaves children
    /// as they are (only `destroy()` applies rules, in the model layer).
    public static let foreignKeyActions = AdapterCapabilities(rawValue: 1 << 1)
}

/// What an adapter cannot do by nature, so the suite skips (and reports) the checks that
/// need it and checks the documented substitute instead.
public struct AdapterLimitations: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// No rollback: writes a failed transaction body made stay made (HTTP APIs). The
    /// `transactions` group and rollback checks elsewhere are skipped.
    public static let noTransactions = AdapterLimitations(rawValue: 1 << 0)
    /// Some queries cannot be expressed and throw ``QueryNotExpressible`` before any work;
    /// such checks are reported as skips.
    public static let partialQueries = AdapterLimitations(rawValue: 1 << 1)
    /// A constraint failure does not say which column failed (an HTTP 409): a
    /// `.uniqueViolation`'s ``StoreError/column`` is nil.
    public static let unnamedConstraintColumns = AdapterLimitations(rawValue: 1 << 5)
    /// Values travel as JSON text: dates keep microseconds (not every bit of the double),
    /// and ±infinity is refused with a typed error, storing nothing.
    public static let jsonValues = AdapterLimitations(rawValue: 1 << 2)
    /// Dates are stored to the microsecond (PostgreSQL's `timestamptz`), not every bit of
    /// the `Date`'s double.
    public static let microsecondDates = AdapterLimitations(rawValue: 1 << 3)
    /// Text cannot hold a NUL character (PostgreSQL): saving or querying such a string
    /// is refused with a typed error, storing nothing.
    public static let textWithoutNUL = AdapterLimitations(rawValue: 1 << 4)
    /// The store leaves nulls out of what it returns (an API that omits null keys): a NULL
    /// in a non-optional column reads as the column's default, as an omitted default
    /// does, so it cannot be reported as an invalid stored value.
    public static let omittedNulls = AdapterLimitations(rawValue: 1 << 6)
    /// The store behind the adapter runs the model layer itself (a server built on
    /// ModelServer): every write it receives is validated and runs the server's hooks, and
    /// a delete applies the server's delete rules — so the checks that a write by id skips
    /// validation or hooks, or that `delete()` leaves related rows alone, are skipped.
    public static let modelServer = AdapterLimitations(rawValue: 1 << 7)
    /// A client of a server that keeps the rows, and their change history if any: the
    /// client store keeps none and does not refuse models that ask for one (the server
    /// decides). The `history` group is skipped.
    public static let remoteHistory = AdapterLimitations(rawValue: 1 << 8)
}

/// One failed check.
public struct ConformanceFailure: Sendable, CustomStringConvertible {
    /// The group it belongs to.
    public let group: ConformanceGroup
    /// What was checked and what happened.
    public let message: String
    /// Where in the suite's source.
    public let file: String
    public let line: Int

    public var description: String { "[\(group.rawValue)] \(message) (\(file):\(line))" }
}

/// The outcome of a run: what passed, failed, and was skipped (with the reason).
public struct ConformanceReport: Sendable, CustomStringConvertible {
    /// The adapter's name, as given.
    public let adapter: String
    /// Groups that ran, with how many checks each made.
    public internal(set) var checked: [ConformanceGroup: Int] = [:]
    /// Failed checks.
    public internal(set) var failures: [ConformanceFailure] = []
    /// Groups (or parts) not run, and why.
    public internal(set) var skipped: [(group: ConformanceGroup, reason: String)] = []

    /// Whether every check that ran passed.
    public var passed: Bool { failures.isEmpty }

    public var description: String {
        var lines = ["\(adapter): \(checked.values.reduce(0, +)) checks in \(checked.count) groups, \(failures.count) failed"]
        lines += skipped.map { "  skipped \($0.group.rawValue): \($0.reason)" }
        lines += failures.map { "  " + $0.description }
        return lines.joined(separator: "\n")
    }
}
