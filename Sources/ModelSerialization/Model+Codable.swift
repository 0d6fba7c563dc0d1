import Foundation

extension ModelProtocol {
    /// Reads a record through any `Decoder` (`JSONDecoder`, web frameworks), shaped by the
    /// model's ``JSONMapping`` exactly as ``init(dictionary:)``.
    ///
    /// ```swift
    /// let todo = try JSONDecoder().decode(Todo.self, from: data)
    /// let todos = try JSONDecoder().decode([Todo].self, from: data)
    /// ```
    ///
    /// Each record is read on its own; to resolve references across the elements of an
    /// array, share a ``SerializationGraph`` through `userInfo[.serializationGraph]`.
    public init(from decoder: any Decoder) throws {
        self.init()
        let value =
            try DirectCoding.object(from: decoder, plan: SerializationPlans.plan(for: Self.self))
            ?? decoder.singleValueContainer().decode(ModelValue.self)
        if let graph = decoder.userInfo[.serializationGraph] as? SerializationGraph {
            try graph.reader.withLock { reader throws(SerializationError) in _ = try reader.fill(self, from: value) }
        } else {
            try GraphReader().fill(self, from: value)
        }
    }

    /// Writes the record through any `Encoder`, as ``dictionaryValue()`` shapes it (dates
    /// per the mapping's strategy, not the encoder's).
    public func encode(to encoder: any Encoder) throws {
        let dictionary: [String: ModelValue]
        if let graph = encoder.userInfo[.serializationGraph] as? SerializationGraph {
            dictionary = try graph.writer.withLock { writer throws(SerializationError) in try writer.object(self, pruning: false) }
        } else {
            dictionary = try GraphWriter().object(self)
        }
        try DirectCoding.encode(dictionary, to: encoder)
    }
}

/// Shares record identity across the records of one document read or written through
/// `Codable`, so references resolve between array elements.
///
/// ```swift
/// let encoder = JSONEncoder()
/// encoder.userInfo[.serializationGraph] = SerializationGraph()
/// let data = try encoder.encode(authors)          // a shared publisher is written once
///
/// let decoder = JSONDecoder()
/// decoder.userInfo[.serializationGraph] = SerializationGraph()
/// let back = try decoder.decode([Author].self, from: data)
/// ```
///
/// Use a new graph per document. Thread-safe: its state is guarded by locks.
public final class SerializationGraph: Sendable {
    let writer = Locked(GraphWriter())
    let reader = Locked(GraphReader())

    /// An empty graph.
    public init() {}
}

extension CodingUserInfoKey {
    /// The key for a ``SerializationGraph`` in an encoder's or decoder's `userInfo`.
    public static let serializationGraph: CodingUserInfoKey = {
        guard let key = CodingUserInfoKey(rawValue: "SwiftModel.SerializationGraph") else {
            preconditionFailure("a non-empty raw value always makes a key")
        }
        return key
    }()
}
