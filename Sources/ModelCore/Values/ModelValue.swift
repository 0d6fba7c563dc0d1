import Foundation

/// A stored value: the closed set of things a column can hold.
///
/// Every adapter reads and writes rows of `ModelValue`s; models convert them to and from
/// their typed Swift properties. There is no `Any` anywhere on the storage path.
///
/// Literals make dynamic access read naturally:
///
/// ```swift
/// try todo.set("due_date", to: "2012-09-19")        // .string, cast to a date
/// try Todo(["name": "walk", "priority": 3, "done": false])
/// ```
public enum ModelValue: Sendable, Hashable {
    /// No value (SQL `NULL`).
    case null
    /// A boolean.
    case bool(Bool)
    /// A 64-bit signed integer.
    case int(Int64)
    /// A double-precision float.
    case double(Double)
    /// A string (both `string` and `text` columns).
    case string(String)
    /// An instant in time, with sub-second precision.
    case date(Date)
    /// Raw bytes (a blob).
    case data(Data)
    /// A UUID.
    case uuid(UUID)
    /// An ordered list of values.
    case array([ModelValue])
    /// A JSON-object-like dictionary.
    case dictionary([String: ModelValue])

    /// Whether this is ``null``.
    @inlinable public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// A short name of the stored kind, used in error messages (`"string"`, `"int"`…).
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .int: "int"
        case .double: "double"
        case .string: "string"
        case .date: "date"
        case .data: "data"
        case .uuid: "uuid"
        case .array: "array"
        case .dictionary: "dictionary"
        }
    }
}

extension ModelValue: CustomStringConvertible, CustomDebugStringConvertible {
    /// A readable rendering: strings quoted, dates in ISO 8601 with milliseconds.
    public var description: String {
        switch self {
        case .null: return "nil"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d): return String(d)
        case .string(let s): return "\"" + s + "\""
        case .date(let d): return DateCodec.iso8601String(d)
        case .data(let d): return "<\(d.count) bytes>"
        case .uuid(let u): return u.uuidString
        case .array(let a): return "[" + a.map(\.description).joined(separator: ", ") + "]"
        case .dictionary(let d):
            let body = d.keys.sorted().map { "\"\($0)\": \(d[$0]!.description)" }
            return "[" + (body.isEmpty ? ":" : body.joined(separator: ", ")) + "]"
        }
    }

    /// The same as ``description``, prefixed with the kind.
    public var debugDescription: String { "ModelValue.\(kindName)(\(description))" }
}

// MARK: - Literals

extension ModelValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    @inlinable public init(nilLiteral: ()) { self = .null }
    @inlinable public init(booleanLiteral value: Bool) { self = .bool(value) }
    @inlinable public init(integerLiteral value: Int64) { self = .int(value) }
    @inlinable public init(floatLiteral value: Double) { self = .double(value) }
    @inlinable public init(stringLiteral value: String) { self = .string(value) }
    @inlinable public init(arrayLiteral elements: ModelValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, ModelValue)...) {
        var dictionary: [String: ModelValue] = [:]
        dictionary.reserveCapacity(elements.count)
        for (key, value) in elements { dictionary[key] = value }  // last one wins, as in JSON
        self = .dictionary(dictionary)
    }
}

extension ModelValue {
    /// A row of `count` values, `value(k)` at index `k`, in one allocation.
    ///
    /// Grows an empty array by reserving, not through `Array(unsafeUninitializedCapacity:)`:
    /// that initialiser allocates through the standard library's unspecialised entry point,
    /// which looks up the array storage's generic metadata on every call — about 800
    /// instructions per row, more than a 10-column row's values cost to make. Reserving
    /// runs code specialised for `ModelValue`, whose metadata is cached.
    @inlinable package static func row(count: Int, _ value: (Int) throws -> ModelValue) rethrows -> [ModelValue] {
        var row: [ModelValue] = []
        row.reserveCapacity(count)
        for k in 0..<count { row.append(try value(k)) }
        return row
    }
}
