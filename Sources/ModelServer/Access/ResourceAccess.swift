/// What a request does to a resource.
public enum ResourceOperation: String, Sendable, Hashable, CaseIterable {
    /// `GET` of a collection.
    case list
    /// `GET` (or `HEAD`) of one record.
    case read
    /// `POST` to a collection.
    case create
    /// `PATCH` or `PUT` of one record.
    case update
    /// `DELETE` of one record.
    case delete
}

/// What the authorisation hook is asked about: the request, the model it reaches and what
/// it would do. For a nested route (`/todos/5/items`) the hook is asked first about the
/// owner (`.read` of todo 5), then about the nested model.
public struct ResourceAccessRequest: Sendable {
    /// The HTTP request (headers carry the credentials).
    public let request: ResourceRequest
    /// The model's schema (``ModelSchema/modelName``, ``ModelSchema/tableName``).
    public let schema: ModelSchema
    /// What the request would do.
    public let operation: ResourceOperation
}

/// The hook's answer: go on, go on within a scope, or refuse.
///
/// A scope is row-level security by column values (`["owner_id": .int(user.id)]`): lists
/// and counts see only matching rows; a read, update or delete of a row outside it is a
/// 404 (its existence is not revealed); a create gets the scope's values, and a body that
/// sets a scoped column to another value — on create or update — is a 403.
public enum ResourceAccess: Sendable, Hashable {
    /// The request goes on unrestricted.
    case allow
    /// The request goes on, limited to rows whose columns (stored names) hold these values.
    case scoped([String: ModelValue])
    /// The request is refused with this status (401, 403, 429, …) and message.
    case deny(status: Int, message: String)
}

/// Decides, for every request and model it reaches, whether it may go on and within what
/// scope. Throwing a ``ResourceError`` answers with it; any other error is a 500.
public typealias ResourceAuthorizer = @Sendable (ResourceAccessRequest) async throws -> ResourceAccess
