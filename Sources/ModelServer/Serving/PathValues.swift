import Foundation

/// Values written in paths (ids, owner keys) and back.
enum PathValues {
    /// The value of `column` from its path text: JSON text for columns whose JSON form is
    /// not a string (numbers, booleans), the text itself otherwise, then the JSON mapping's
    /// casting; nil when the column cannot hold it.
    static func value(_ text: String, column: Int, codec: RowJSONCodec) -> ModelValue? {
        var raw = ModelValue.string(text)
        switch codec.schema.columns[column].type {
        case .string, .text, .uuid, .data, .date: break
        default: if let parsed = try? ModelJSON.parse(text), !parsed.isNull { raw = parsed }
        }
        guard let value = try? codec.value(fromJSON: raw, forColumn: column), !value.isNull else { return nil }
        return value
    }

    /// A value as a path segment (lower-case UUIDs, as ``RESTRoutes`` writes them).
    static func text(_ value: ModelValue) -> String {
        RESTRoutes.Template.text(value)
    }
}
