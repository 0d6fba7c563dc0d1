/// How the resource core serves one model, beyond its ``RESTResource`` routes.
public struct ResourceOptions: Sendable {
    /// What a `null` in a `PATCH` body means.
    public enum PatchNull: Sendable, Hashable {
        /// The column is set to nil (JSON Merge Patch, RFC 7396): the default.
        case clears
        /// The key is ignored, as if it was not sent (for clients that send every key).
        case ignored
    }

    /// Bounds on list queries: page size, conditions, sort keys, nesting.
    public var limits = RESTQueryLimits()
    /// The operations served; others answer 405 with `Allow`.
    public var operations: Set<ResourceOperation> = Set(ResourceOperation.allCases)
    /// What a `null` in a `PATCH` body means.
    public var patchNull: PatchNull = .clears
    /// Whether a body key that names no field is ignored instead of a 422 `unknown_key`.
    public var ignoresUnknownKeys = false
    /// Columns (stored names) a client never writes, beside the resource's
    /// ``RESTResource/readOnlyColumns``. A body carrying one is a 422 `read_only` (on
    /// update, unless it holds the stored value unchanged). The model's timestamps are
    /// never written from a body either: values sent for them are dropped and the model
    /// layer stamps its own.
    public var readOnlyColumns: Set<String> = []

    /// The defaults.
    public init() {}
}
