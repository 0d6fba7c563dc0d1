import Foundation

/// The Parse format read back (``RESTQueryDecoder``): `where` (a JSON object of field
/// conditions, `$and`, `$or`), `order`, `limit` and `skip`. Operators: `$eq`, `$ne`, `$lt`,
/// `$lte`, `$gt`, `$gte`, `$in`, `$nin`, `$exists`, and `$regex` (with `$options: "i"`) in
/// the forms the encoder writes — an escaped literal, anchored at the start, the end or both
/// (`.*` and `.` only inside a pattern anchored at both ends, a LIKE); any other regular
/// expression is refused, since the query runs as SQL.
extension ParseQueryEncoder: RESTQueryDecoder {
    public func decode(_ items: [URLQueryItem], codec: RowJSONCodec, limits: RESTQueryLimits) throws(RESTQueryDecodingError)
        -> RESTListQuery
    {
        var predicate: QueryPredicate?
        var sort: [SortKey] = []
        var limit: Int?
        var offset = 0
        var seen: Set<String> = []
        for item in items {
            guard let text = item.value else { throw RESTQueryDecodingError(parameter: item.name, reason: "has no value") }
            guard seen.insert(item.name).inserted else { throw RESTQueryDecodingError(parameter: item.name, reason: "given twice") }
            switch item.name {
            case "where":
                guard let json = try? ModelJSON.parse(text), case .dictionary(let object) = json else {
                    throw RESTQueryDecodingError(parameter: "where", reason: "not a JSON object")
                }
                var reader = WhereReader(codec: codec, limits: limits)
                predicate = try reader.predicate(object, depth: 1)
            case "order": sort = try Self.sort(text, parameter: "order", codec: codec, limits: limits)
            case "limit": limit = try Self.count(text, parameter: "limit", maximum: limits.pageSize)
            case "skip": offset = try Self.count(text, parameter: "skip")
            default: throw RESTQueryDecodingError(parameter: item.name, reason: "not a query parameter (where, order, limit, skip)")
            }
        }
        return RESTListQuery(predicate: predicate, sort: sort, limit: limit, offset: offset, codec: codec)
    }
}

/// Reads a `where` object, counting conditions against the limits.
private struct WhereReader {
    let codec: RowJSONCodec
    let limits: RESTQueryLimits
    var conditions = 0

    static let comparisons: [String: ComparisonOperator] = [
        "$eq": .equal, "$ne": .notEqual, "$lt": .less, "$lte": .lessOrEqual, "$gt": .greater, "$gte": .greaterOrEqual,
    ]

    mutating func predicate(_ object: [String: ModelValue], depth: Int) throws(RESTQueryDecodingError) -> QueryPredicate? {
        guard depth <= limits.depth else {
            throw RESTQueryDecodingError(parameter: "where", reason: "nested deeper than \(limits.depth) levels")
        }
        var parts: [QueryPredicate] = []
        for key in object.keys.sorted() {
            guard let value = object[key] else { continue }
            switch key {
            case "$and", "$or":
                guard case .array(let list) = value else {
                    throw RESTQueryDecodingError(parameter: "where \(key)", reason: "not an array of objects")
                }
                var members: [QueryPredicate] = []
                for element in list {
                    guard case .dictionary(let inner) = element else {
                        throw RESTQueryDecodingError(parameter: "where \(key)", reason: "not an array of objects")
                    }
                    members.append(try predicate(inner, depth: depth + 1) ?? .and([]))
                }
                parts.append(key == "$and" ? .and(members) : .or(members))
            default:
                guard let column = codec.column(forKey: key) else {
                    throw RESTQueryDecodingError(parameter: "where \(key)", reason: "names no field")
                }
                parts += try field(key, column, value)
            }
        }
        return parts.isEmpty ? nil : parts.count == 1 ? parts[0] : .and(parts)
    }

    /// The conditions on one field: an operator object, or a value meaning equality.
    private mutating func field(_ key: String, _ column: Int, _ value: ModelValue) throws(RESTQueryDecodingError) -> [QueryPredicate] {
        let parameter = "where \(key)"
        guard case .dictionary(let operators) = value, operators.keys.contains(where: { $0.hasPrefix("$") }) else {
            try count(parameter)
            return [.compare(column: column, .equal, try ParseQueryEncoder.value(json: value, column: column, codec: codec, parameter: parameter))]
        }
        var parts: [QueryPredicate] = []
        for name in operators.keys.sorted() where name != "$options" {
            guard let operand = operators[name] else { continue }
            try count(parameter)
            if let op = Self.comparisons[name] {
                parts.append(.compare(column: column, op, try ParseQueryEncoder.value(json: operand, column: column, codec: codec, parameter: parameter)))
                continue
            }
            switch name {
            case "$in", "$nin":
                guard case .array(let list) = operand, list.count <= limits.listValues else {
                    throw RESTQueryDecodingError(parameter: "\(parameter) \(name)", reason: "not an array of at most \(limits.listValues) values")
                }
                var values: [ModelValue] = []
                for element in list { values.append(try ParseQueryEncoder.value(json: element, column: column, codec: codec, parameter: parameter)) }
                parts.append(name == "$in" ? .isIn(column: column, values) : .notIn(column: column, values))
            case "$exists":
                guard case .bool(let exists) = operand else {
                    throw RESTQueryDecodingError(parameter: "\(parameter) $exists", reason: "not true or false")
                }
                parts.append(exists ? .isNotNull(column: column) : .isNull(column: column))
            case "$regex":
                guard case .string(let regex) = operand else {
                    throw RESTQueryDecodingError(parameter: "\(parameter) $regex", reason: "not a string")
                }
                var insensitive = false
                if let options = operators["$options"] {
                    guard options == .string("i") || options == .string("") else {
                        throw RESTQueryDecodingError(parameter: "\(parameter) $options", reason: "only \"i\" is supported")
                    }
                    insensitive = options == .string("i")
                }
                let (op, text) = try RegexForms.textMatch(regex, parameter: "\(parameter) $regex")
                parts.append(.text(column: column, op, text, caseInsensitive: insensitive))
            default:
                throw RESTQueryDecodingError(parameter: "\(parameter) \(name)", reason: "not a supported operator")
            }
        }
        return parts
    }

    private mutating func count(_ parameter: String) throws(RESTQueryDecodingError) {
        conditions += 1
        guard conditions <= limits.conditions else {
            throw RESTQueryDecodingError(parameter: parameter, reason: "more than \(limits.conditions) conditions")
        }
    }
}

/// The `$regex` forms ``ParseQueryEncoder`` writes, read back as text matches.
enum RegexForms {
    static func textMatch(_ regex: String, parameter: String) throws(RESTQueryDecodingError) -> (TextOperator, String) {
        var body = Substring(regex)
        let start = body.hasPrefix("^")
        if start { body = body.dropFirst() }
        var end = false
        if body.hasSuffix("$"), !isEscaped(body, at: body.index(before: body.endIndex)) {
            end = true
            body = body.dropLast()
        }
        var literal = "", like = "", wildcard = false, escaped = false
        var characters = body.makeIterator()
        var pending: Character? = nil
        while let c = pending ?? characters.next() {
            pending = nil
            if escaped {
                literal.append(c)
                like += (c == "%" || c == "_" || c == "\\") ? "\\\(c)" : String(c)
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else if c == "." {
                wildcard = true
                if let next = characters.next() {
                    if next == "*" { like += "%" } else { like += "_"; pending = next }
                } else {
                    like += "_"
                }
            } else if "[(){+*?|^$".contains(c) {
                // A lone `]` or `}` is a literal (Foundation leaves `]` unescaped); the rest
                // would make a class, group, quantifier, alternative or anchor.
                throw RESTQueryDecodingError(parameter: parameter, reason: "only the encoder's forms are accepted (an escaped literal, ^…, …$, ^…$)")
            } else {
                literal.append(c)
                like += (c == "%" || c == "_") ? "\\\(c)" : String(c)
            }
        }
        if escaped { throw RESTQueryDecodingError(parameter: parameter, reason: "ends inside an escape") }
        switch (start, end, wildcard) {
        case (true, true, _): return (.like, like)
        case (_, _, true): throw RESTQueryDecodingError(parameter: parameter, reason: "wildcards need a pattern anchored at both ends")
        case (true, false, false): return (.beginsWith, literal)
        case (false, true, false): return (.endsWith, literal)
        case (false, false, false): return (.contains, literal)
        }
    }

    private static func isEscaped(_ text: Substring, at index: Substring.Index) -> Bool {
        var backslashes = 0
        var k = index
        while k > text.startIndex {
            k = text.index(before: k)
            guard text[k] == "\\" else { break }
            backslashes += 1
        }
        return backslashes % 2 == 1
    }
}
