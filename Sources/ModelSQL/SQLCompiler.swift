import ModelCore
import ModelEngine

/// Compiles a ``StoreQuery`` into one SQL statement with bound arguments, with the
/// semantics of ``QueryEngine`` (the conformance suite and the differential tests compare
/// the two on every SQL adapter):
///
/// - comparisons, `IN`, `BETWEEN` and `IS NULL` map to SQL's own (same three-valued
///   logic); `in []` is false and `notIn []` true;
/// - text matching on a column that is not a string is false (unknown when null); the
///   dialect renders the match itself (``SQLDialect/textMatch(_:_:_:caseInsensitive:bind:)``);
/// - every `ORDER BY` puts nulls first ascending and ends with the dialect's row key, so
///   ties keep store order.
///
/// The statement builders (`select`, `count`, `delete`, `update`, `aggregate`) are in
/// `SQLCompiler+Statements.swift`.
package struct SQLCompiler<Dialect: SQLDialect> {
    /// The values bound so far, in placeholder order.
    package var arguments: [ModelValue] = []
    package let schema: ModelSchema
    package let dialect: Dialect
    /// Per column, how the table stores dates (nil: natively or not a date): date values
    /// compared with or assigned to a column are bound in its storage.
    package let dates: [DateStorage?]

    package init(_ schema: ModelSchema, _ dialect: Dialect, dates: [DateStorage?] = []) {
        self.schema = schema
        self.dialect = dialect
        self.dates = dates
    }

    package func column(_ index: Int) throws -> String {
        guard schema.columns.indices.contains(index) else {
            throw StoreError(.invalidRequest, table: schema.tableName, message: "column index \(index) out of range")
        }
        return SQLText.quote(schema.columnNames[index])
    }

    package mutating func bind(_ value: ModelValue) -> String {
        arguments.append(value)
        return dialect.placeholder(arguments.count)
    }

    /// Binds a value compared with or assigned to column `index`, in its date storage.
    package mutating func bind(_ value: ModelValue, column index: Int) -> String {
        bind(dates.stored(value, column: index))
    }

    /// The `WHERE` clause body for `predicate`.
    package mutating func condition(_ predicate: QueryPredicate) throws -> String {
        switch predicate {
        case .compare(let index, let op, let value):
            let name = try column(index)
            if value.isNull { return "\(name) \(op.rawValue) \(bind(value, column: index))" }
            guard let operand = dialect.operand(name, schema.columns[index].type, comparedWith: value) else {
                // Incomparable kinds: unequal, and unordered (unknown).
                switch op {
                case .equal: return unlessNull(name, dialect.falseCondition)
                case .notEqual: return unlessNull(name, dialect.trueCondition)
                default: return "NULL"
                }
            }
            return "\(operand) \(op.rawValue) \(bind(value, column: index))"
        case .isNull(let index):
            return "\(try column(index)) IS NULL"
        case .isNotNull(let index):
            return "\(try column(index)) IS NOT NULL"
        case .isIn(let index, let values):
            if values.isEmpty { return dialect.falseCondition }
            return try membership(index, values, negated: false)
        case .notIn(let index, let values):
            if values.isEmpty { return dialect.trueCondition }
            return try membership(index, values, negated: true)
        case .between(let index, let low, let high):
            return try condition(.and([.compare(column: index, .greaterOrEqual, low), .compare(column: index, .lessOrEqual, high)]))
        case .text(let index, let op, let text, let caseInsensitive):
            let name = try column(index)
            let type = schema.columns[index].type
            guard type == .string || type == .text else {
                return "(CASE WHEN \(name) IS NULL THEN NULL ELSE \(dialect.falseCondition) END)"
            }
            return dialect.textMatch(name, op, text, caseInsensitive: caseInsensitive) { bind($0) }
        case .and(let parts):
            if parts.isEmpty { return dialect.trueCondition }
            return "(" + (try parts.map { try condition($0) }.joined(separator: " AND ")) + ")"
        case .or(let parts):
            if parts.isEmpty { return dialect.falseCondition }
            return "(" + (try parts.map { try condition($0) }.joined(separator: " OR ")) + ")"
        case .not(let inner):
            return "NOT (\(try condition(inner)))"
        }
    }

    /// `(CASE WHEN column IS NULL THEN NULL ELSE outcome END)`: a fixed outcome that stays
    /// unknown for null, as a comparison would.
    private func unlessNull(_ column: String, _ outcome: String) -> String {
        "(CASE WHEN \(column) IS NULL THEN NULL ELSE \(outcome) END)"
    }

    /// `column [NOT] IN (…)` over the members comparable with the column (the others are
    /// never equal, so they are left out; with none left the outcome is fixed).
    private mutating func membership(_ index: Int, _ values: [ModelValue], negated: Bool) throws -> String {
        let name = try column(index)
        let type = schema.columns[index].type
        var operand = name
        var members: [ModelValue] = []
        for value in values {
            if value.isNull {
                members.append(value)
            } else if let expression = dialect.operand(name, type, comparedWith: value) {
                operand = expression
                members.append(value)
            }
        }
        if members.isEmpty { return unlessNull(name, negated ? dialect.trueCondition : dialect.falseCondition) }
        let list = members.map { bind($0, column: index) }.joined(separator: ", ")
        return "\(operand) \(negated ? "NOT IN" : "IN") (\(list))"
    }

    /// ` WHERE …` (empty without a predicate).
    package mutating func whereClause(_ query: StoreQuery) throws -> String {
        guard let predicate = query.predicate else { return "" }
        return " WHERE " + (try condition(predicate))
    }

    /// ` ORDER BY …, <row key>` (store order for ties). A key on the id ends the clause:
    /// ids are unique, so nothing after it can order a tie (and the database can read the
    /// primary key's index in order instead of sorting).
    package func orderClause(_ query: StoreQuery) throws -> String {
        var keys: [String] = []
        for sort in query.sort {
            let name = try column(sort.column)
            let nullable = sort.column != 0 && schema.columns[sort.column].isOptional
            keys.append(dialect.orderKey(name, ascending: sort.ascending, nullable: nullable))
            if sort.column == 0 { return " ORDER BY " + keys.joined(separator: ", ") }
        }
        keys.append(dialect.rowKey(schema))
        return " ORDER BY " + keys.joined(separator: ", ")
    }

    /// ` LIMIT … OFFSET …` when the query pages (a negative limit selects nothing, as in
    /// memory).
    package mutating func windowClause(_ query: StoreQuery) -> String {
        guard Self.isWindowed(query) else { return "" }
        let limit = query.limit.map { bind(.int(Int64(max(0, $0)))) }
        let offset = query.offset > 0 ? bind(.int(Int64(query.offset))) : nil
        return dialect.window(limit: limit, offset: offset)
    }

    /// Whether the query selects a window of an ordering (so a subquery is needed before
    /// counting, deleting or aggregating).
    package static func isWindowed(_ query: StoreQuery) -> Bool {
        query.limit != nil || query.offset > 0
    }
}
