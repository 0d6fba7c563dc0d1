import Foundation

/// How ``ModelProtocol/jsonSchema(_:)`` writes a model's JSON Schema.
public struct JSONSchemaOptions: Sendable {
    /// Which rules apply (rules declared `.on(...)` other contexts are left out).
    public var context: ValidationContext = .create
    /// How dates appear in the documents the schema describes (as `jsonData()` writes them).
    public var dates: JSONDateStrategy = .iso8601
    /// Whether documents may carry keys that are not columns.
    public var allowsAdditionalProperties = false
    /// The schema's `$id`, if it has one.
    public var id: String?

    /// The default options: create context, ISO 8601 dates, no extra keys, no `$id`.
    public init() {}
}

/// A JSON Schema (draft 2020-12) document.
public struct JSONSchemaDocument: Sendable, Equatable {
    /// The schema as a JSON value tree.
    public let root: ModelValue

    /// The schema as JSON text, keys sorted.
    public var jsonText: String { ModelJSON.serialize(root) }

    /// The schema as UTF-8 JSON.
    public var jsonData: Data { Data(ModelJSON.serializedBytes(root)) }

    /// The schema of one property, by column name.
    public func property(_ column: String) -> [String: ModelValue]? {
        guard case .dictionary(let top) = root, case .dictionary(let properties)? = top["properties"],
            case .dictionary(let property)? = properties[column]
        else { return nil }
        return property
    }
}
