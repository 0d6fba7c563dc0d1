import Foundation

/// Query parameters in the plain style many APIs take: `key=value` for equality, a
/// suffix per operator (`age_gt=30`), "one of" as a repeated key (`id=1&id=2`) or a joined
/// list (`id__in=1,2`, ``Lists``), a sort list (`sort=-age,name`) and `limit`/`offset` or
/// `page`/`per_page`.
///
/// Conditions must be an `and` of those; `or`, `not`, null tests, text matching and
/// "not in" are refused with ``RESTQueryError``. Empty ``operatorSuffixes`` allow equality
/// only.
public struct PlainQueryEncoder: RESTQueryEncoder {
    /// How the window is sent.
    public enum Paging: Sendable, Hashable {
        /// `limit=…&offset=…`.
        case limitOffset(limit: String, offset: String)
        /// `page=…&per_page=…` (the offset must be a whole number of pages).
        case pages(page: String, perPage: String)
        /// Not at all: a query with a limit or offset is refused.
        case none
    }

    /// How a "one of" condition (`in`) is spelled.
    public enum Lists: Sendable, Hashable {
        /// The key repeated, once per value: `priority=1&priority=3` (json-server, ModelServer).
        case repeatedKey
        /// One parameter, the key with a suffix and the values joined:
        /// `priority__in=1,3` (django-filter's `BaseInFilter`: `.joined(suffix: "__in", separator: ",")`).
        /// A value holding the separator is refused.
        case joined(suffix: String, separator: String)
        /// None: an `in` condition is refused before anything is sent (for servers that
        /// keep only one of repeated keys, which no result check can catch).
        case none
    }

    /// The key suffix for each operator other than equality.
    public var operatorSuffixes: [ComparisonOperator: String]
    /// How "one of" is spelled.
    public var lists: Lists
    /// The sort parameter (`"sort"`); nil refuses ordered queries.
    public var sortParameter: String?
    /// How limit and offset are sent.
    public var paging: Paging

    /// An encoder; by default `_ne`, `_lt`, `_lte`, `_gt`, `_gte` suffixes, `sort`,
    /// `limit`/`offset`, and repeated keys for lists.
    public init(
        operatorSuffixes: [ComparisonOperator: String] = [
            .notEqual: "_ne", .less: "_lt", .lessOrEqual: "_lte", .greater: "_gt", .greaterOrEqual: "_gte",
        ],
        sortParameter: String? = "sort", paging: Paging = .limitOffset(limit: "limit", offset: "offset"), lists: Lists = .repeatedKey
    ) {
        self.operatorSuffixes = operatorSuffixes
        self.lists = lists
        self.sortParameter = sortParameter
        self.paging = paging
    }

    /// Equality only (`?age=30`), no order, no paging.
    public static let equalityOnly = PlainQueryEncoder(operatorSuffixes: [:], sortParameter: nil, paging: .none, lists: .none)

    public func encode(_ query: RESTListQuery) throws(RESTQueryError) -> [URLQueryItem] {
        var items: [URLQueryItem] = []
        var reserved: Set<String> = []
        if let sortParameter { reserved.insert(sortParameter) }
        switch paging {
        case .limitOffset(let limit, let offset): reserved.formUnion([limit, offset])
        case .pages(let page, let perPage): reserved.formUnion([page, perPage])
        case .none: break
        }
        var used: Set<String> = []
        func add(_ name: String, _ value: String) throws(RESTQueryError) {
            guard !reserved.contains(name) else {
                throw RESTQueryError(part: "a condition on \(name)", reason: "\"\(name)\" is also a paging or sort parameter")
            }
            guard used.insert(name).inserted else {
                throw RESTQueryError(part: "two conditions on \(name)", reason: "plain parameters hold one condition per key")
            }
            items.append(URLQueryItem(name: name, value: value))
        }
        func condition(_ predicate: QueryPredicate) throws(RESTQueryError) {
            switch predicate {
            case .and(let parts):
                for part in parts { try condition(part) }
            case .compare(let column, let op, let value):
                let key = try query.key(for: column)
                if op == .equal { return try add(key, query.text(value, column: column)) }
                guard let suffix = operatorSuffixes[op] else {
                    throw RESTQueryError(part: "\(query.name(column)) \(op.rawValue) \(value)", reason: "this encoder sends equality only")
                }
                try add(key + suffix, query.text(value, column: column))
            case .between(let column, let low, let high):
                try condition(.and([.compare(column: column, .greaterOrEqual, low), .compare(column: column, .lessOrEqual, high)]))
            case .isIn(let column, let values):
                let key = try query.key(for: column)
                guard !values.isEmpty else { throw RESTQueryError(part: "\(query.name(column)) in []", reason: "an empty list has no plain form") }
                switch lists {
                case .none:
                    throw RESTQueryError(part: "\(query.name(column)) in [...]", reason: "this encoder declares no spelling for lists")
                case .joined(let suffix, let separator):
                    var texts: [String] = []
                    for value in values {
                        let text = try query.text(value, column: column)
                        guard !text.contains(separator) else {
                            throw RESTQueryError(part: "\(query.name(column)) in [\(text)]", reason: "a value holds the list separator \"\(separator)\"")
                        }
                        texts.append(text)
                    }
                    try add(key + suffix, texts.joined(separator: separator))
                case .repeatedKey:
                    guard !reserved.contains(key), used.insert(key).inserted else {
                        throw RESTQueryError(part: "two conditions on \(key)", reason: "plain parameters hold one condition per key")
                    }
                    for value in values { items.append(URLQueryItem(name: key, value: try query.text(value, column: column))) }
                }
            case .or: throw RESTQueryError(part: "or", reason: "plain parameters combine conditions with and only")
            case .not: throw RESTQueryError(part: "not", reason: "plain parameters have no negation")
            case .isNull(let column), .isNotNull(let column):
                throw RESTQueryError(part: "a null test on \(query.name(column))", reason: "plain parameters have no null test")
            case .notIn(let column, _):
                throw RESTQueryError(part: "\(query.name(column)) not in", reason: "plain parameters have no exclusion list")
            case .text(let column, let op, _, _):
                throw RESTQueryError(part: "text match (\(op.rawValue)) on \(query.name(column))", reason: "plain parameters have no text matching")
            }
        }
        if let predicate = query.predicate { try condition(predicate) }
        if !query.sort.isEmpty {
            guard let sortParameter else { throw RESTQueryError(part: "an order", reason: "this encoder has no sort parameter") }
            var keys: [String] = []
            for key in query.sort { keys.append((key.ascending ? "" : "-") + (try query.key(for: key.column))) }
            items.append(URLQueryItem(name: sortParameter, value: keys.joined(separator: ",")))
        }
        switch paging {
        case .limitOffset(let limit, let offset):
            if let value = query.limit { items.append(URLQueryItem(name: limit, value: String(value))) }
            if query.offset > 0 { items.append(URLQueryItem(name: offset, value: String(query.offset))) }
        case .pages(let page, let perPage):
            items += try query.pages(page: page, perPage: perPage)
        case .none:
            if query.limit != nil || query.offset > 0 {
                throw RESTQueryError(part: "a limit or offset", reason: "this encoder sends no paging parameters")
            }
        }
        return items
    }
}
