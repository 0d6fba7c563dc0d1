/// A comparison operator.
public enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
    case equal = "=", notEqual = "<>", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
}

/// A string-matching operator.
public enum TextOperator: String, Sendable, Hashable, CaseIterable {
    /// The column contains the text (taken literally).
    case contains
    /// The column starts with the text (taken literally).
    case beginsWith
    /// The column ends with the text (taken literally).
    case endsWith
    /// The column matches a LIKE pattern: `%` any run, `_` one character, `\` escapes.
    case like
}

extension TextOperator {
    /// Escapes `%`, `_` and `\` so `text` matches literally inside a ``like`` pattern.
    ///
    /// ```swift
    /// let startsWith100Percent: QueryPredicate =
    ///     .text(column: 1, .like, TextOperator.escapeLike("100%") + "%", caseInsensitive: false)
    /// ```
    public static func escapeLike(_ text: String) -> String {
        var out = ""
        for c in text.unicodeScalars {
            if c == "%" || c == "_" || c == "\\" { out.unicodeScalars.append("\\") }
            out.unicodeScalars.append(c)
        }
        return out
    }
}

/// A condition on a model's rows: a closed tree that every adapter interprets.
///
/// Columns are row indexes into the query's ``ModelSchema``. Null semantics are SQL's:
/// a comparison involving null is *unknown*, `not` of unknown is unknown, and only rows
/// for which the whole predicate is *true* match. `in []` matches nothing, `notIn []`
/// everything (even nulls).
public indirect enum QueryPredicate: Sendable, Hashable {
    /// `column op value`.
    case compare(column: Int, ComparisonOperator, ModelValue)
    /// `column IS NULL`.
    case isNull(column: Int)
    /// `column IS NOT NULL`.
    case isNotNull(column: Int)
    /// `column IN (values)`.
    case isIn(column: Int, [ModelValue])
    /// `column NOT IN (values)`.
    case notIn(column: Int, [ModelValue])
    /// `column BETWEEN low AND high` (inclusive).
    case between(column: Int, ModelValue, ModelValue)
    /// String matching, optionally ignoring ASCII case (as SQLite's LIKE does).
    case text(column: Int, TextOperator, String, caseInsensitive: Bool)
    /// All must hold (`and []` is true).
    case and([QueryPredicate])
    /// Any must hold (`or []` is false).
    case or([QueryPredicate])
    /// Negation (three-valued).
    case not(QueryPredicate)
}

/// One sort key.
public struct SortKey: Sendable, Hashable {
    /// The column's row index.
    public var column: Int
    /// Ascending (`true`) or descending.
    public var ascending: Bool

    /// Creates a sort key. Nulls sort first ascending and last descending, as in SQLite.
    public init(column: Int, ascending: Bool = true) {
        self.column = column
        self.ascending = ascending
    }
}

/// A complete request for rows of one model: what every adapter's `fetch`, `count` and
/// bulk `delete` receive.
///
/// Ties in ``sort`` keep insertion order (the row's position in the store), so results are
/// deterministic on every adapter.
public struct StoreQuery: Sendable, Equatable {
    /// The model's schema (which names the table).
    public var schema: ModelSchema
    /// The condition; `nil` matches every row.
    public var predicate: QueryPredicate?
    /// Sort keys, most significant first.
    public var sort: [SortKey]
    /// At most this many rows.
    public var limit: Int?
    /// Skip this many rows first.
    public var offset: Int
    /// For ``PersistenceAdapter/aggregate(_:)``: what to compute over the selected rows.
    public var aggregate: Aggregate?
    /// For ``PersistenceAdapter/fetch(_:)``: lock the selected rows until the transaction
    /// ends (see ``RowLock``; counts, deletes and updates ignore it).
    public var rowLock: RowLock?

    /// Creates a query.
    public init(
        schema: ModelSchema, predicate: QueryPredicate? = nil, sort: [SortKey] = [], limit: Int? = nil, offset: Int = 0,
        aggregate: Aggregate? = nil, rowLock: RowLock? = nil
    ) {
        self.schema = schema
        self.predicate = predicate
        self.sort = sort
        self.limit = limit
        self.offset = offset
        self.aggregate = aggregate
        self.rowLock = rowLock
    }

    public static func == (a: StoreQuery, b: StoreQuery) -> Bool {
        a.schema === b.schema && a.predicate == b.predicate && a.sort == b.sort && a.limit == b.limit && a.offset == b.offset
            && a.aggregate == b.aggregate && a.rowLock == b.rowLock
    }
}
