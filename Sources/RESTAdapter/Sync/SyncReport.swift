/// What a pull or a push did, record by record counts and the conflicts.
public struct SyncReport: Sendable, Equatable, CustomStringConvertible {
    /// Records added (locally by a pull, on the server by a push).
    public var inserted = 0
    /// Records changed.
    public var updated = 0
    /// Records deleted.
    public var deleted = 0
    /// Records left as they were (identical, or the policy kept the local version).
    public var skipped = 0
    /// Records changed on both sides, with what was decided.
    public var conflicts: [SyncConflict] = []

    /// An empty report.
    public init() {}

    public var description: String {
        "inserted \(inserted), updated \(updated), deleted \(deleted), skipped \(skipped), conflicts \(conflicts.count)"
    }
}

/// A record changed both locally (not yet pushed) and on the server.
public struct SyncConflict: Sendable, Equatable {
    /// The model.
    public var model: String
    /// The record's id.
    public var id: ModelValue
    /// What the merge policy decided.
    public var resolution: MergeDecision

    /// A conflict.
    public init(model: String, id: ModelValue, resolution: MergeDecision) {
        self.model = model
        self.id = id
        self.resolution = resolution
    }
}

/// What to do with a record that differs locally and remotely.
public enum MergeDecision: String, Sendable, Hashable {
    /// Keep the local version (and its pending change).
    case keepLocal
    /// Replace the local version with the server's (dropping its pending change).
    case takeRemote
}

/// How a pull resolves records that differ locally and remotely.
public enum MergePolicy: Sendable {
    /// Local versions win.
    case keepLocal
    /// Server versions win.
    case takeRemote
    /// The version with the later `updated_at` wins (local on a tie or when either has
    /// none).
    case newestWins
    /// Your function of the local and remote rows (column name → value) decides, as
    /// MotionModel seeds' `merge_if`.
    case custom(@Sendable (_ local: [String: ModelValue], _ remote: [String: ModelValue]) -> MergeDecision)
}
