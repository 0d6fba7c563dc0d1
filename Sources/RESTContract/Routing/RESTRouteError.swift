/// A resource declaration whose routes cannot be built: a path template naming no column,
/// a `nestedUnder` that is not a `@BelongsTo` relation. Thrown when the resource is
/// registered (with ``ModelResources`` on a server; a client's `RESTAdapter.register`
/// reports it as `RESTError` `.route`).
public struct RESTRouteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The model whose resource it is.
    public let model: String
    /// What is wrong with the declaration.
    public let message: String

    /// Creates an error.
    public init(model: String, message: String) {
        self.model = model
        self.message = message
    }

    public var description: String { "\(model): \(message)" }
}

extension RESTRouteError: SwiftModelError {
    /// The model of the resource.
    public var modelName: String? { model }
}
