/// A query part a ``RESTQueryEncoder`` cannot express.
public struct RESTQueryError: Error, Sendable, CustomStringConvertible {
    /// The unsupported part, as the encoder names it (`"text match on name"`, `"or"`).
    public let part: String
    /// Why, or what the encoder supports instead.
    public let reason: String

    /// Creates an error.
    public init(part: String, reason: String) {
        self.part = part
        self.reason = reason
    }

    public var description: String { "cannot express \(part): \(reason)" }
}

extension RESTQueryError: SwiftModelError {}
