/// The dictionary forms of the dynamic API, taking ordinary Swift values, so variables need
/// no `ModelValue` wrapper:
///
/// ```swift
/// let title = "walk the dog", due = Date.now
/// let chore = try Chore(["name": title, "due_date": due, "priority": 3])
/// try chore.set(["name": title.uppercased()])
/// try Chore.create(["name": title], in: store)
/// ```
///
/// Values convert with their `modelValue` and are then cast exactly as the `ModelValue`
/// forms cast them (`Docs/Casting.md`). An optional that is nil assigns nil.
extension ModelProtocol {
    /// Makes a record from column names and Swift values (see ``init(_:)-ModelValue``).
    ///
    /// - Throws: ``ModelError`` `.unknownColumn`, ``CastError``.
    public init(_ attributes: [String: any ModelValueConvertible]) throws {
        try self.init(attributes.mapValues(\.modelValue))
    }

    /// Assigns several columns from Swift values at once, all or nothing.
    ///
    /// - Throws: ``ModelError`` `.unknownColumn`, ``CastError``; nothing is assigned then.
    public func set(_ attributes: [String: any ModelValueConvertible]) throws {
        try set(attributes.mapValues(\.modelValue))
    }

    /// Makes a record from column names and Swift values and saves it.
    ///
    /// - Throws: as ``init(_:)`` and ``save(to:validate:)``.
    @discardableResult
    public static func create(_ attributes: [String: any ModelValueConvertible], in adapter: (any PersistenceAdapter)? = nil)
        throws -> Self
    {
        try create(attributes.mapValues(\.modelValue), in: adapter)
    }
}
