/// What a journaled change does on the server.
public enum SyncOperation: String, Sendable, Hashable, CaseIterable {
    /// Create the record (`POST`).
    case insert
    /// Send its changed columns (`PATCH`, or `PUT`).
    case update
    /// Delete it (`DELETE`).
    case delete
}

/// A local change waiting for a push: one per record, later changes folded in.
public struct SyncEntry: Sendable, Hashable {
    /// The model's name.
    public let model: String
    /// The record's local id (a provisional one until the server assigns its own).
    public let id: ModelValue
    /// What the push will do.
    public let operation: SyncOperation
    /// The columns an update sends (nil: every column).
    public let changedColumns: [String]?
    /// Why the server refused it at the last push; nil while it waits. A failed entry is
    /// not sent again until ``RESTSync/retry(_:)``.
    public let failure: String?
    /// Pushes that tried to send it.
    public let attempts: Int
    /// Whether ``id`` is local only, to be replaced by the server's id.
    public let provisional: Bool
    /// The order entries are pushed in.
    let sequence: Int64
    /// The `Idempotency-Key` its create is sent with.
    let idempotencyKey: String
}

/// What a push did with one entry.
public struct SyncOutcome: Sendable, Equatable {
    /// What happened.
    public enum Result: Sendable, Equatable {
        /// The server has the change.
        case sent
        /// The server refused it (a 4xx other than a conflict, or a conflict on create);
        /// the entry stays in the journal as failed, with this message.
        case failed(String)
        /// The record was changed or deleted on the server meanwhile (409, 412, or a
        /// missing record on update); the entry stays as failed for the app to resolve.
        case conflict(String)
        /// Not sent: it refers to a record whose own create has not reached the server.
        case waiting
    }

    /// The model's name.
    public var model: String
    /// The record's id before the push.
    public var id: ModelValue
    /// The id the server gave it, when it differs.
    public var serverID: ModelValue?
    /// The change.
    public var operation: SyncOperation
    /// What happened.
    public var result: Result
}
