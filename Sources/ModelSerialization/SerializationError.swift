/// A record that could not be written as, or read from, a dictionary or JSON.
///
/// It names the model, the key path inside the document and, for type errors, what was
/// expected and what was found:
///
/// ```
/// Team: at players[1].born_at: expected date?, found "yesterday" (string): not a date
/// ```
public struct SerializationError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Sendable, Hashable {
        /// A value does not convert to its column's type.
        case typeMismatch
        /// A key matches no column or relation (with ``JSONUnknownKeyStrategy/reject``).
        case unknownKey
        /// The text is not JSON, or not an object or array where one is needed.
        case invalidJSON
        /// The model's ``JSONMapping`` names something that does not exist, or twice.
        case invalidMapping
        /// A `$ref` names a record not seen (yet) in the document, or of another model.
        case unresolvedReference
        /// A value cannot be written as JSON (a non-finite double) or a transformer or
        /// hook refused it.
        case invalidValue
        /// Loading a relation to write it failed.
        case storeFailure
    }

    /// What went wrong.
    public let kind: Kind
    /// The model being read or written (`"Team"`).
    public let model: String
    /// Where in the document: `players[1].born_at`; empty at the top level.
    public let keyPath: String
    /// The expected type (`"date?"`), for type errors.
    public let expected: String?
    /// The value found, for type errors.
    public let found: ModelValue?
    /// Details.
    public let message: String

    /// Creates an error.
    public init(
        _ kind: Kind, model: String, keyPath: String = "", expected: String? = nil, found: ModelValue? = nil,
        message: String
    ) {
        self.kind = kind
        self.model = model
        self.keyPath = keyPath
        self.expected = expected
        self.found = found
        self.message = message
    }

    public var description: String {
        var text = model.isEmpty ? "" : model + ": "
        if !keyPath.isEmpty { text += "at \(keyPath): " }
        if let expected {
            text += "expected \(expected)"
            if let found { text += ", found \(found) (\(found.kindName))" }
            text += ": "
        }
        return text + message
    }
}

/// A path inside a document being read or written, kept as a stack of components.
package struct DocumentPath {
    private enum Component {
        case key(String)
        case index(Int)
    }

    private var components: [Component] = []

    package init() {}

    package mutating func push(_ key: String) { components.append(.key(key)) }
    package mutating func push(index: Int) { components.append(.index(index)) }
    package mutating func pop() { components.removeLast() }

    /// `players[1].born_at`.
    package var rendered: String { rendered(appending: nil) }

    /// The path with one more key (a column, named only when an error is reported).
    package func rendered(appending key: String?) -> String {
        var out = ""
        for component in components {
            switch component {
            case .key(let key): out += out.isEmpty ? key : "." + key
            case .index(let index): out += "[\(index)]"
            }
        }
        if let key { out += out.isEmpty ? key : "." + key }
        return out
    }
}

extension SerializationError: SwiftModelError {
    /// The model.
    public var modelName: String? { model }
    /// The key path in the document (`"todos[3].due"`).
    public var columnName: String? { keyPath.isEmpty ? nil : keyPath }
    /// The value found, when one was.
    public var offendingValue: ModelValue? { found }
}
