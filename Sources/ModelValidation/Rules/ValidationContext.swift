/// When a rule applies: on create, on update, or in a context of your own.
///
/// Rules without `.on(...)` apply in every context. `save()` validates in ``create`` for a
/// new record and ``update`` otherwise; `validate(in:)` can name any context.
///
/// ```swift
/// v.add(\.password, .presence.on(.create))
/// v.add(\.summary, .presence.on("publish"))
/// try post.validate(in: "publish")
/// ```
public struct ValidationContext: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The context's name.
    public let name: String

    /// A context by name.
    public init(_ name: String) { self.name = name }

    public init(stringLiteral value: String) { self.init(value) }

    /// Saving a new record.
    public static let create = ValidationContext("create")
    /// Saving a stored record.
    public static let update = ValidationContext("update")

    public var description: String { name }
}
