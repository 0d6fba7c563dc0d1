import Foundation

/// Reads a list request's query parameters back into a query: the inverse of a
/// ``RESTQueryEncoder``, for a server that answers the requests RESTAdapter sends (or any
/// client using the same format). Strict: a parameter that is not part of the format, a
/// key that names no column, a value the column cannot hold, or a query beyond the
/// ``RESTQueryLimits`` is an error naming it — never a condition silently dropped.
public protocol RESTQueryDecoder: Sendable {
    /// The query `items` express for the model `codec` maps.
    ///
    /// - Throws: ``RESTQueryDecodingError`` naming the parameter at fault.
    func decode(_ items: [URLQueryItem], codec: RowJSONCodec, limits: RESTQueryLimits) throws(RESTQueryDecodingError)
        -> RESTListQuery
}

/// Bounds on the queries a server decodes, so one request cannot ask for unbounded work.
public struct RESTQueryLimits: Sendable, Hashable {
    /// The most conditions (each comparison or list counts one).
    public var conditions = 32
    /// The most values in one "one of" list.
    public var listValues = 100
    /// The most sort keys.
    public var sortKeys = 4
    /// How deep `and`/`or`/`not` may nest (Parse-style `where`).
    public var depth = 4
    /// The largest page a request may ask for (`limit`, `per_page`).
    public var pageSize = 1_000
    /// The page size when a request names a page but no size.
    public var defaultPageSize = 30

    /// The default limits.
    public init() {}
}

/// A query parameter a server refuses (answered with 400 and this description).
public struct RESTQueryDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The parameter at fault (its name, or `name=value`).
    public let parameter: String
    /// Why it is refused.
    public let reason: String

    /// Creates an error.
    public init(parameter: String, reason: String) {
        self.parameter = parameter
        self.reason = reason
    }

    public var description: String { "query parameter \(parameter): \(reason)" }
}

extension RESTQueryDecoder {
    /// The value of `column` from its query-string text: JSON text (a number, `true`, an
    /// array) for columns whose JSON form is not a string, the text itself otherwise; then
    /// the column's JSON mapping and casting rules.
    static func value(_ text: String, column: Int, codec: RowJSONCodec, parameter: String) throws(RESTQueryDecodingError)
        -> ModelValue
    {
        var raw = ModelValue.string(text)
        switch codec.schema.columns[column].type {
        case .string, .text, .uuid, .data: break
        case .date:
            // A date strategy may write numbers (seconds since 1970); ISO text stays text.
            if let parsed = try? ModelJSON.parse(text), case .double = parsed { raw = parsed }
            if let parsed = try? ModelJSON.parse(text), case .int = parsed { raw = parsed }
        default: if let parsed = try? ModelJSON.parse(text), !parsed.isNull { raw = parsed }
        }
        return try value(json: raw, column: column, codec: codec, parameter: parameter)
    }

    /// The value of `column` from its JSON form.
    static func value(json raw: ModelValue, column: Int, codec: RowJSONCodec, parameter: String) throws(RESTQueryDecodingError)
        -> ModelValue
    {
        do {
            return try codec.value(fromJSON: raw, forColumn: column)
        } catch {
            throw RESTQueryDecodingError(parameter: parameter, reason: error.description)
        }
    }

    /// A non-negative whole number parameter, at most `maximum`.
    static func count(_ text: String, parameter: String, maximum: Int = .max) throws(RESTQueryDecodingError) -> Int {
        guard let value = Int(text), value >= 0 else {
            throw RESTQueryDecodingError(parameter: "\(parameter)=\(text)", reason: "not a whole number ≥ 0")
        }
        guard value <= maximum else {
            throw RESTQueryDecodingError(parameter: "\(parameter)=\(text)", reason: "more than \(maximum)")
        }
        return value
    }

    /// A sort list (`-age,name`) as sort keys.
    static func sort(_ text: String, parameter: String, codec: RowJSONCodec, limits: RESTQueryLimits) throws(RESTQueryDecodingError)
        -> [SortKey]
    {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count <= limits.sortKeys else {
            throw RESTQueryDecodingError(parameter: parameter, reason: "more than \(limits.sortKeys) sort keys")
        }
        var keys: [SortKey] = []
        for part in parts {
            let descending = part.hasPrefix("-")
            let key = descending ? String(part.dropFirst()) : part
            guard let column = codec.column(forKey: key) else {
                throw RESTQueryDecodingError(parameter: "\(parameter)=\(text)", reason: "\"\(key)\" names no field")
            }
            keys.append(SortKey(column: column, ascending: !descending))
        }
        return keys
    }
}
