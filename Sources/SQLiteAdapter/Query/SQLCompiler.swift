import ModelEngine

/// Compiles a ``StoreQuery`` into one SQL statement with bound arguments, with the
/// semantics of ``QueryEngine`` (the conformance suite compares the two):
///
/// - comparisons, `IN`, `BETWEEN` and `IS NULL` map to SQL's own (same three-valued
///   logic); `in []` is `0`, `notIn []` is `1`;
/// - case-insensitive text matching is `LIKE … ESCAPE '\'` (ASCII folding, as the
///   in-memory engine does); case-sensitive matching is `GLOB` with the pattern
///   translated, so no connection setting changes `LIKE`;
/// - text matching on a column that is not a string is false (unknown when null);
/// - strings holding a NUL byte (which `LIKE`/`GLOB` would cut short) are matched by
///   `swiftmodel_match`, the in-memory engine's matcher registered on each connection;
/// - every `ORDER BY` ends with `rowid`, so ties keep store order.
struct SQLCompiler {
    private(set) var arguments: [ModelValue] = []
    let schema: ModelSchema
    /// Per column, how the table stores dates (``TableMapping/dates``): date values
    /// compared with or assigned to a column are bound in its storage.
    let dates: [DateStorage?]

    init(_ schema: ModelSchema, dates: [DateStorage?] = []) {
        self.schema = schema
        self.dates = dates
    }

    private func column(_ index: Int) throws -> String {
        guard schema.columns.indices.contains(index) else {
            throw StoreError(.invalidRequest, table: schema.tableName, message: "column index \(index) out of range")
        }
        return SQLText.quote(schema.columns[index].name)
    }

    private mutating func bind(_ value: ModelValue) -> String {
        arguments.append(value)
        return "?"
    }

    /// Binds a value compared with or assigned to column `index`, in its date storage.
    private mutating func bind(_ value: ModelValue, column index: Int) -> String {
        if case .date(let date) = value, index < dates.count, let storage = dates[index] {
            return bind(storage.stored(date))
        }
        return bind(value)
    }

    /// The `WHERE` clause body for `predicate`.
    mutating func condition(_ predicate: QueryPredicate) throws -> String {
        switch predicate {
        case .compare(let index, let op, let value):
            return "\(try column(index)) \(op.rawValue) \(bind(value, column: index))"
        case .isNull(let index):
            return "\(try column(index)) IS NULL"
        case .isNotNull(let index):
            return "\(try column(index)) IS NOT NULL"
        case .isIn(let index, let values):
            if values.isEmpty { return "0" }
            let name = try column(index)
            return "\(name) IN (\(values.map { bind($0, column: index) }.joined(separator: ", ")))"
        case .notIn(let index, let values):
            if values.isEmpty { return "1" }
            let name = try column(index)
            return "\(name) NOT IN (\(values.map { bind($0, column: index) }.joined(separator: ", ")))"
        case .between(let index, let low, let high):
            let name = try column(index)
            return "\(name) BETWEEN \(bind(low, column: index)) AND \(bind(high, column: index))"
        case .text(let index, let op, let text, let caseInsensitive):
            let name = try column(index)
            let type = schema.columns[index].type
            guard type == .string || type == .text else { return "(CASE WHEN \(name) IS NULL THEN NULL ELSE 0 END)" }
            let exact = "\(MatchFunction.name)(\(name), \(bind(.string(op.rawValue))), \(bind(.string(text))), \(caseInsensitive ? 1 : 0))"
            if text.utf8.contains(0) { return exact }
            let tokens = TextMatcher.tokens(op, text)
            let native =
                caseInsensitive
                ? "\(name) LIKE \(bind(.string(Self.likePattern(tokens)))) ESCAPE '\\'"
                : "\(name) GLOB \(bind(.string(Self.globPattern(tokens))))"
            // LIKE and GLOB stop at a NUL byte; such strings go through the exact matcher.
            return "(CASE WHEN instr(CAST(\(name) AS BLOB), x'00') > 0 THEN \(exact) ELSE \(native) END)"
        case .and(let parts):
            if parts.isEmpty { return "1" }
            return "(" + (try parts.map { try condition($0) }.joined(separator: " AND ")) + ")"
        case .or(let parts):
            if parts.isEmpty { return "0" }
            return "(" + (try parts.map { try condition($0) }.joined(separator: " OR ")) + ")"
        case .not(let inner):
            return "NOT (\(try condition(inner)))"
        }
    }

    static func likePattern(_ tokens: [TextMatcher.Token]) -> String {
        var out = String.UnicodeScalarView()
        for token in tokens {
            switch token {
            case .any: out.append("%")
            case .one: out.append("_")
            case .literal(let value):
                guard let scalar = Unicode.Scalar(value) else { continue }
                if scalar == "%" || scalar == "_" || scalar == "\\" { out.append("\\") }
                out.append(scalar)
            }
        }
        return String(out)
    }

    static func globPattern(_ tokens: [TextMatcher.Token]) -> String {
        var out = String.UnicodeScalarView()
        for token in tokens {
            switch token {
            case .any: out.append("*")
            case .one: out.append("?")
            case .literal(let value):
                guard let scalar = Unicode.Scalar(value) else { continue }
                if scalar == "*" || scalar == "?" || scalar == "[" {
                    out.append("[")
                    out.append(scalar)
                    out.append("]")
                } else {
                    out.append(scalar)
                }
            }
        }
        return String(out)
    }

    /// ` WHERE …` (empty without a predicate).
    mutating func whereClause(_ query: StoreQuery) throws -> String {
        guard let predicate = query.predicate else { return "" }
        return " WHERE " + (try condition(predicate))
    }

    /// ` ORDER BY …, rowid` (store order for ties).
    func orderClause(_ query: StoreQuery) throws -> String {
        var keys = try query.sort.map { try column($0.column) + ($0.ascending ? "" : " DESC") }
        keys.append("rowid")
        return " ORDER BY " + keys.joined(separator: ", ")
    }

    /// ` LIMIT ? OFFSET ?` when the query pages.
    mutating func windowClause(_ query: StoreQuery) -> String {
        guard query.limit != nil || query.offset > 0 else { return "" }
        // No limit is `LIMIT -1` in SQLite; a negative limit selects nothing, as in memory.
        var sql = " LIMIT " + bind(.int(Int64(query.limit.map { max(0, $0) } ?? -1)))
        if query.offset > 0 { sql += " OFFSET " + bind(.int(Int64(query.offset))) }
        return sql
    }

    /// Whether the query selects a window of an ordering (so a subquery is needed before
    /// counting, deleting or aggregating).
    static func isWindowed(_ query: StoreQuery) -> Bool {
        query.limit != nil || query.offset > 0
    }

    // MARK: Statements

    /// `SELECT columns FROM table WHERE … ORDER BY … LIMIT … OFFSET …`.
    static func select(_ query: StoreQuery, columns: String, dates: [DateStorage?] = []) throws -> (String, [ModelValue]) {
        var compiler = SQLCompiler(query.schema, dates: dates)
        let table = SQLText.quote(query.schema.tableName)
        let sql =
            "SELECT \(columns) FROM \(table)" + (try compiler.whereClause(query)) + (try compiler.orderClause(query))
            + compiler.windowClause(query)
        return (sql, compiler.arguments)
    }

    /// The rowids the query selects, as a subquery (for windowed counts, deletes, updates).
    static func rowids(_ query: StoreQuery, dates: [DateStorage?] = []) throws -> (String, [ModelValue]) {
        try select(query, columns: "rowid", dates: dates)
    }

    /// `SELECT count(*) …`.
    static func count(_ query: StoreQuery, dates: [DateStorage?] = []) throws -> (String, [ModelValue]) {
        let table = SQLText.quote(query.schema.tableName)
        if isWindowed(query) {
            let (inner, arguments) = try select(query, columns: "1", dates: dates)
            return ("SELECT count(*) FROM (\(inner))", arguments)
        }
        var compiler = SQLCompiler(query.schema, dates: dates)
        return ("SELECT count(*) FROM \(table)" + (try compiler.whereClause(query)), compiler.arguments)
    }

    /// `DELETE FROM … WHERE …` (through the selected rowids when windowed).
    static func delete(_ query: StoreQuery, dates: [DateStorage?] = []) throws -> (String, [ModelValue]) {
        let table = SQLText.quote(query.schema.tableName)
        if isWindowed(query) {
            let (inner, arguments) = try rowids(query, dates: dates)
            return ("DELETE FROM \(table) WHERE rowid IN (\(inner))", arguments)
        }
        var compiler = SQLCompiler(query.schema, dates: dates)
        return ("DELETE FROM \(table)" + (try compiler.whereClause(query)), compiler.arguments)
    }

    /// `UPDATE … SET …` on the selected rows whose values differ (so the change count
    /// matches the in-memory engine's, which skips rows already holding the values).
    static func update(
        _ query: StoreQuery, set values: [(column: Int, value: ModelValue)], dates: [DateStorage?] = []
    ) throws -> (String, [ModelValue]) {
        let table = SQLText.quote(query.schema.tableName)
        var compiler = SQLCompiler(query.schema, dates: dates)
        let sets = try values.map { "\(try compiler.column($0.column)) = \(compiler.bind($0.value, column: $0.column))" }
            .joined(separator: ", ")
        let unchanged = try values.map { "\(try compiler.column($0.column)) IS \(compiler.bind($0.value, column: $0.column))" }
            .joined(separator: " AND ")
        var sql = "UPDATE \(table) SET \(sets) WHERE NOT (\(unchanged))"
        if isWindowed(query) {
            let (inner, arguments) = try rowids(query, dates: dates)
            sql += " AND rowid IN (\(inner))"
            return (sql, compiler.arguments + arguments)
        }
        if let predicate = query.predicate { sql += " AND " + (try compiler.condition(predicate)) }
        return (sql, compiler.arguments)
    }
}
