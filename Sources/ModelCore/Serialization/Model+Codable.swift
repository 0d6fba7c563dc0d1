import Foundation

extension ModelProtocol {
    /// Reads a record through any `Decoder` (`JSONDecoder`, web frameworks), shaped by the
    /// model's ``JSONMapping`` exactly as ``init(dictionary:)``.
    ///
    /// ```swift
    /// let task = try JSONDecoder().decode(Task.self, from: data)
    /// let tasks = try JSONDecoder().decode([Task].self, from: data)
    /// ```
    ///
    /// Each record is read on its own; to resolve references across the elements of an
    /// array, share a ``SerializationGraph`` through `userInfo[.serializationGraph]`.
    public init(from decoder: any Decoder) throws {
        self.init()
        let value = try decoder.singleValueContainer().decode(ModelValue.self)
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
        var container = encoder.singleValueContainer()
        try container.encode(ModelValue.dictionary(dictionary))
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

extension ModelValue: Codable {
    /// Reads any JSON value: `null`, booleans, integers (as ``int(_:)``), other numbers,
    /// strings, arrays and objects.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let int = try? container.decode(Int64.self) {
            self = .int(int)
        } else if let double = try? container.decode(Double.self) {
            self = .double(double)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([ModelValue].self) {
            self = .array(array)
        } else if let dictionary = try? container.decode([String: ModelValue].self) {
            self = .dictionary(dictionary)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }

    /// Writes the value as JSON does: dates as ISO 8601 strings, UUIDs as strings, data
    /// as base64.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let b): try container.encode(b)
        case .int(let i): try container.encode(i)
        case .double(let d): try container.encode(d)
        case .string(let s): try container.encode(s)
        case .date(let d): try container.encode(GraphWriter.iso8601(d))
        case .uuid(let u): try container.encode(u.uuidString)
        case .data(let d): try container.encode(d.base64EncodedString())
        case .array(let a): try container.encode(a)
        case .dictionary(let d): try container.encode(d)
        }
    }
}
