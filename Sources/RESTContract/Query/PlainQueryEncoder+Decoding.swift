import Foundation

/// The plain format read back (``RESTQueryDecoder``): `key=value` is equality, a repeated
/// key (or, with ``Lists/joined(suffix:separator:)``, the key and suffix) is "one of", `key<suffix>=value` a comparison, the sort parameter a sort list, and
/// the paging parameters the window. A key that is both a field and a field plus a suffix
/// reads as the field.
extension PlainQueryEncoder: RESTQueryDecoder {
    public func decode(_ items: [URLQueryItem], codec: RowJSONCodec, limits: RESTQueryLimits) throws(RESTQueryDecodingError)
        -> RESTListQuery
    {
        var sort: [SortKey] = []
        var window: (limit: Int?, offset: Int?, page: Int?, perPage: Int?) = (nil, nil, nil, nil)
        var names: [String] = []
        var values: [String: [String]] = [:]
        var seenControl: Set<String> = []
        for item in items {
            guard let text = item.value else {
                throw RESTQueryDecodingError(parameter: item.name, reason: "has no value")
            }
            let name = item.name
            if isControl(name) {
                guard seenControl.insert(name).inserted else {
                    throw RESTQueryDecodingError(parameter: name, reason: "given twice")
                }
                try control(name, text, codec, limits, &sort, &window)
                continue
            }
            if values[name] == nil { names.append(name) }
            values[name, default: []].append(text)
        }
        guard names.count <= limits.conditions else {
            throw RESTQueryDecodingError(parameter: names[limits.conditions], reason: "more than \(limits.conditions) conditions")
        }
        var conditions: [QueryPredicate] = []
        for name in names {
            conditions.append(try condition(name, values[name] ?? [], codec, limits))
        }
        let (limit, offset) = try self.window(window, limits)
        let predicate: QueryPredicate? = conditions.isEmpty ? nil : conditions.count == 1 ? conditions[0] : .and(conditions)
        return RESTListQuery(predicate: predicate, sort: sort, limit: limit, offset: offset, codec: codec)
    }

    /// Whether `name` is the sort or a paging parameter.
    private func isControl(_ name: String) -> Bool {
        if name == sortParameter { return true }
        switch paging {
        case .limitOffset(let limit, let offset): return name == limit || name == offset
        case .pages(let page, let perPage): return name == page || name == perPage
        case .none: return false
        }
    }

    private func control(
        _ name: String, _ text: String, _ codec: RowJSONCodec, _ limits: RESTQueryLimits, _ sort: inout [SortKey],
        _ window: inout (limit: Int?, offset: Int?, page: Int?, perPage: Int?)
    ) throws(RESTQueryDecodingError) {
        if name == sortParameter {
            sort = try Self.sort(text, parameter: name, codec: codec, limits: limits)
            return
        }
        switch paging {
        case .limitOffset(let limit, _):
            if name == limit {
                window.limit = try Self.count(text, parameter: name, maximum: limits.pageSize)
            } else {
                window.offset = try Self.count(text, parameter: name)
            }
        case .pages(let page, _):
            if name == page {
                window.page = try Self.count(text, parameter: name)
                if window.page == 0 { throw RESTQueryDecodingError(parameter: "\(name)=0", reason: "pages count from 1") }
            } else {
                window.perPage = try Self.count(text, parameter: name, maximum: limits.pageSize)
                if window.perPage == 0 { throw RESTQueryDecodingError(parameter: "\(name)=0", reason: "a page holds at least one row") }
            }
        case .none:
            break
        }
    }

    /// The limit and offset of the paging parameters.
    private func window(_ window: (limit: Int?, offset: Int?, page: Int?, perPage: Int?), _ limits: RESTQueryLimits)
        throws(RESTQueryDecodingError) -> (Int?, Int)
    {
        guard case .pages(let pageName, _) = paging else { return (window.limit, window.offset ?? 0) }
        guard window.page != nil || window.perPage != nil else { return (nil, 0) }
        let size = window.perPage ?? limits.defaultPageSize
        let (offset, overflow) = ((window.page ?? 1) - 1).multipliedReportingOverflow(by: size)
        guard !overflow else { throw RESTQueryDecodingError(parameter: pageName, reason: "beyond any page") }
        return (size, offset)
    }

    /// The condition of one field parameter with its values.
    private func condition(_ name: String, _ texts: [String], _ codec: RowJSONCodec, _ limits: RESTQueryLimits)
        throws(RESTQueryDecodingError) -> QueryPredicate
    {
        if let column = codec.column(forKey: name) {
            if texts.count == 1 { return .compare(column: column, .equal, try Self.value(texts[0], column: column, codec: codec, parameter: name)) }
            guard lists == .repeatedKey else { throw RESTQueryDecodingError(parameter: name, reason: "given twice") }
            guard texts.count <= limits.listValues else {
                throw RESTQueryDecodingError(parameter: name, reason: "more than \(limits.listValues) values")
            }
            var list: [ModelValue] = []
            for text in texts { list.append(try Self.value(text, column: column, codec: codec, parameter: name)) }
            return .isIn(column: column, list)
        }
        if case .joined(let suffix, let separator) = lists, name.hasSuffix(suffix), let column = codec.column(forKey: String(name.dropLast(suffix.count))) {
            guard texts.count == 1 else { throw RESTQueryDecodingError(parameter: name, reason: "given twice") }
            let parts = texts[0].split(separator: separator, omittingEmptySubsequences: false)
            guard parts.count <= limits.listValues else {
                throw RESTQueryDecodingError(parameter: name, reason: "more than \(limits.listValues) values")
            }
            var list: [ModelValue] = []
            for part in parts { list.append(try Self.value(String(part), column: column, codec: codec, parameter: name)) }
            return .isIn(column: column, list)
        }
        for (op, suffix) in operatorSuffixes.sorted(by: { $0.value.count > $1.value.count }) where name.hasSuffix(suffix) {
            guard let column = codec.column(forKey: String(name.dropLast(suffix.count))) else { continue }
            guard texts.count == 1 else { throw RESTQueryDecodingError(parameter: name, reason: "given twice") }
            return .compare(column: column, op, try Self.value(texts[0], column: column, codec: codec, parameter: name))
        }
        throw RESTQueryDecodingError(parameter: name, reason: "names no field and is not a query parameter")
    }
}
