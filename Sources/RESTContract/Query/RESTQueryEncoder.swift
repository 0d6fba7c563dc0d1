import Foundation

/// Turns the part of a query an HTTP API can express into URL query parameters.
///
/// An encoder either expresses the whole query — condition, order, limit and offset — or
/// throws ``RESTQueryError`` naming the part it cannot, before any request is sent: the
/// adapter never fetches more than asked and filters on the client. Two ship:
/// ``PlainQueryEncoder`` (`?age=30&age_gt=20&sort=-age&limit=10`) and
/// ``ParseQueryEncoder`` (`?where={"age":{"$gt":20}}&order=-age&limit=10`).
public protocol RESTQueryEncoder: Sendable {
    /// The query parameters for `query`.
    func encode(_ query: RESTListQuery) throws(RESTQueryError) -> [URLQueryItem]
}

/// A query as an encoder sees it: the condition, order and window, with the model's
/// JSON keys and value forms at hand.
public struct RESTListQuery: Sendable {
    /// The condition; nil matches everything.
    public let predicate: QueryPredicate?
    /// Sort keys, most significant first.
    public let sort: [SortKey]
    /// At most this many rows.
    public let limit: Int?
    /// Skip this many rows first.
    public let offset: Int
    /// The model's JSON mapping.
    public let codec: RowJSONCodec

    /// Creates a query to encode.
    public init(predicate: QueryPredicate?, sort: [SortKey], limit: Int?, offset: Int, codec: RowJSONCodec) {
        self.predicate = predicate
        self.sort = sort
        self.limit = limit
        self.offset = offset
        self.codec = codec
    }

    /// The JSON key of a column; an error for a column the mapping excludes.
    public func key(for column: Int) throws(RESTQueryError) -> String {
        guard let key = codec.key(forColumn: column) else {
            throw RESTQueryError(part: "column \(column)", reason: "the JSON mapping of \(codec.schema.modelName) excludes it")
        }
        return key
    }

    /// A value in its JSON form for `column` (the mapping's transformer and date strategy).
    public func jsonValue(_ value: ModelValue, column: Int) throws(RESTQueryError) -> ModelValue {
        do {
            return try codec.jsonValue(value, forColumn: column)
        } catch {
            throw RESTQueryError(part: "the value \(value)", reason: error.description)
        }
    }

    /// A value as query-string text: strings as they are, numbers and booleans as JSON
    /// writes them, anything else as JSON text.
    public func text(_ value: ModelValue, column: Int) throws(RESTQueryError) -> String {
        switch try jsonValue(value, column: column) {
        case .string(let text): return text
        case .null: throw RESTQueryError(part: "a comparison with null", reason: "it matches nothing; use isNull")
        case let other: return ModelJSON.serialize(other)
        }
    }

    /// The name of a column for messages.
    func name(_ column: Int) -> String {
        column >= 0 && column < codec.schema.columns.count ? codec.schema.columns[column].name : "column \(column)"
    }

    /// `limit` and `offset` as page parameters: both must be whole pages.
    func pages(page: String, perPage: String) throws(RESTQueryError) -> [URLQueryItem] {
        guard let limit else {
            if offset == 0 { return [] }
            throw RESTQueryError(part: "an offset without a limit", reason: "page parameters need a page size")
        }
        guard limit > 0, offset % limit == 0 else {
            throw RESTQueryError(part: "offset \(offset) with limit \(limit)", reason: "page parameters need an offset that is a whole number of pages")
        }
        return [URLQueryItem(name: page, value: String(offset / limit + 1)), URLQueryItem(name: perPage, value: String(limit))]
    }
}
