import Foundation

/// A write's JSON body read into column values: strictly (an object, known keys, values
/// each column can hold, no read-only column), every problem a typed 4xx naming the key.
struct BodyReader {
    let codec: RowJSONCodec
    let ignoresUnknownKeys: Bool

    /// Refuses a write whose `Content-Type` is not JSON (`application/json` or a
    /// `+json` type, parameters allowed) with a 415: a form or `text/plain` body is
    /// never read as JSON, so a cross-site form cannot write under cookie credentials.
    static func checkContentType(_ request: ResourceRequest) throws(ResourceError) {
        let field = request.header("Content-Type") ?? ""
        let type = field.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces).lowercased()
        guard type == "application/json" || (type.hasPrefix("application/") && type.hasSuffix("+json")) else {
            var error = ResourceError(
                status: 415, code: "unsupported_media_type",
                message: field.isEmpty
                    ? "the request has no Content-Type; send application/json"
                    : "the body is \(field); send application/json")
            error.headers["Accept"] = "application/json"
            throw error
        }
    }

    /// The body's object: strict JSON, a key named twice is a 400.
    static func object(_ body: Data, envelope: String?) throws(ResourceError) -> [String: ModelValue] {
        guard !body.isEmpty else { throw ResourceError.badRequest("empty_body", "the request has no body; a JSON object is expected") }
        guard let text = String(data: body, encoding: .utf8) else {
            throw ResourceError.badRequest("malformed_json", "the body is not UTF-8 text")
        }
        let parsed: ModelValue
        do {
            parsed = try ModelJSON.parse(text, rejectingDuplicateKeys: true)
        } catch {
            throw ResourceError.badRequest("malformed_json", "the body is not JSON: \(error.description)")
        }
        var value = parsed
        if let envelope {
            guard case .dictionary(let outer) = parsed, outer.count == 1, let inner = outer[envelope] else {
                throw ResourceError.unprocessable("not_an_object", "the body must be {\"\(envelope)\": {…}}")
            }
            value = inner
        }
        guard case .dictionary(let object) = value else {
            throw ResourceError.unprocessable("not_an_object", "the body must be a JSON object, not \(Self.kind(value))")
        }
        return object
    }

    /// The values `object` sets, by column; nulls included (PATCH decides what they mean).
    func values(_ object: [String: ModelValue]) throws(ResourceError) -> [Int: ModelValue] {
        var values: [Int: ModelValue] = [:]
        var problems: [String: [String]] = [:]
        for key in object.keys.sorted() {
            let raw = object[key] ?? .null
            guard let column = codec.column(forKey: key) else {
                if ignoresUnknownKeys { continue }
                problems[key, default: []].append("is not a field of \(codec.schema.modelName)")
                continue
            }
            if let expected = Self.mismatch(raw, codec.schema.columns[column].type), !codec.hasTransformer(forColumn: column) {
                problems[key, default: []].append("must be \(expected), not \(ModelJSON.serialize(raw))")
                continue
            }
            do {
                values[column] = raw.isNull ? .null : try codec.value(fromJSON: raw, forColumn: column)
            } catch {
                problems[key, default: []].append(Self.reason(error))
            }
        }
        if !problems.isEmpty {
            let unknown = problems.filter { codec.column(forKey: $0.key) == nil }
            let code = unknown.count == problems.count ? "unknown_key" : "wrong_type"
            throw ResourceError(
                status: 422, code: code,
                message: "\(codec.schema.modelName): " + problems.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.joined(separator: ", "))" }.joined(separator: "; "),
                fields: problems)
        }
        return values
    }

    /// What a body's JSON value must be for a column of `type`, when it is not: a string
    /// column takes a JSON string (`{"title": 5}` is refused, not stored as "5"), a boolean
    /// column `true`/`false`, an integer column an integer, a number column a number. Other
    /// types (dates, UUIDs, data, arrays) are read by the mapping's casting.
    private static func mismatch(_ raw: ModelValue, _ type: ColumnType) -> String? {
        switch (type, raw) {
        case (_, .null): nil
        case (.string, .string), (.text, .string), (.bool, .bool), (.int, .int), (.double, .int), (.double, .double): nil
        case (.string, _), (.text, _): "a string"
        case (.bool, _): "true or false"
        case (.int, _): "an integer"
        case (.double, _): "a number"
        default: nil
        }
    }

    private static func reason(_ error: SerializationError) -> String {
        guard let expected = error.expected else { return error.message }
        return "must be \(expected)" + (error.found.map { ", not \(ModelJSON.serialize($0))" } ?? "")
    }

    /// The JSON kind of a value, for messages.
    static func kind(_ value: ModelValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .array: "an array"
        case .dictionary: "an object"
        default: "a string"
        }
    }
}
