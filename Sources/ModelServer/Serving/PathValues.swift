import Foundation

/// Values written in paths (ids, owner keys) and back.
enum PathValues {
    /// The value of `column` from its path text: JSON text for columns whose JSON form is
    /// not a string (numbers, booleans), the text itself otherwise, then the JSON mapping's
    /// casting; nil when the column cannot hold it or `text` is not its canonical spelling.
    static func value(_ text: String, column: Int, codec: RowJSONCodec) -> ModelValue? {
        var raw = ModelValue.string(text)
        switch codec.schema.columns[column].type {
        case .string, .text, .uuid, .data, .date: break
        default: if let parsed = try? ModelJSON.parse(text), !parsed.isNull { raw = parsed }
        }
        guard let value = try? codec.value(fromJSON: raw, forColumn: column), !value.isNull else { return nil }
        // One record, one path: only the canonical spelling names it (`1`, not `1.0`,
        // `1e0`, `+1` or ` 1`); UUIDs in either case, as RFC 9562 reads them.
        switch value {
        case .string, .date, .data: break  // the text as it came
        case .uuid: guard Self.text(value) == text.lowercased() else { return nil }
        default: guard Self.text(value) == text else { return nil }
        }
        return value
    }

    /// A value as a path segment (lower-case UUIDs, as ``RESTRoutes`` writes them).
    static func text(_ value: ModelValue) -> String {
        RESTRoutes.Template.text(value)
    }
}
