import ModelCore
import ModelEngine

/// What differs between the SQL databases the adapters speak. ``SQLCompiler`` writes the
/// statements once, with the in-memory engine's semantics, and asks the dialect for the
/// pieces each database spells its own way: placeholders, booleans, null-safe equality,
/// `NULLS FIRST`, the tie-breaking key, text matching and aggregate result types.
package protocol SQLDialect: Sendable {
    /// The placeholder of the `n`-th bound value (1-based): `?` or `$n`.
    func placeholder(_ n: Int) -> String

    /// An always-true and an always-false condition (`1`/`0`, `TRUE`/`FALSE`).
    var trueCondition: String { get }
    var falseCondition: String { get }

    /// `a` and `b` are equal or both null.
    func isNotDistinct(_ a: String, _ b: String) -> String

    /// One `ORDER BY` key with nulls first ascending and last descending (the engine's rule).
    /// `nullable` is false for columns that hold no nulls (the primary key, non-optional
    /// columns): a database that spells the null order out can then leave it out, so the
    /// key matches a plain index.
    func orderKey(_ column: String, ascending: Bool, nullable: Bool) -> String

    /// The key that keeps ties in store order, last in every `ORDER BY`, and identifies rows
    /// in windowed subqueries (`rowid`; the integer id or a hidden sequence column).
    func rowKey(_ schema: ModelSchema) -> String

    /// ` LIMIT … OFFSET …` with `limit`/`offset` already bound (nil when absent).
    func window(limit: String?, offset: String?) -> String

    /// The condition that `column` (a string column) matches `text` with `op`, using
    /// `bind` to bind values.
    func textMatch(
        _ column: String, _ op: TextOperator, _ text: String, caseInsensitive: Bool, bind: (ModelValue) -> String
    ) -> String

    /// The expression to compare column `column` (of model type `type`) with `value`, or
    /// nil when the engine finds the two incomparable (a string against an integer
    /// column): then `=` is false, `!=` true and ordering unknown, and the compiler writes
    /// that outcome instead of a comparison a strictly typed database would refuse.
    /// Dynamically typed databases return `column` unchanged.
    func operand(_ column: String, _ type: ColumnType, comparedWith value: ModelValue) -> String?

    /// The SQL of an aggregate function over `target` (`*` for rows) with the result type
    /// ``Aggregate`` defines: integers for count and integer sums, doubles for averages.
    func aggregate(_ function: Aggregate.Function, _ target: String, columnType: ColumnType?) -> String

    /// What follows a fetch's `SELECT` to lock its rows, or "" (see ``RowLock``).
    func rowLockClause(_ lock: RowLock) -> String
}

extension SQLDialect {
    /// What follows a fetch's `SELECT` to lock its rows (`FOR UPDATE …`). Default: nothing
    /// (a database whose writers are serialised).
    package func rowLockClause(_ lock: RowLock) -> String { "" }

    /// `LIKE` pattern text for `tokens`: `%`, `_` and `\` escaped with `\` (used with
    /// `ESCAPE '\'`).
    package static func likePattern(_ tokens: [TextMatcher.Token], lowercasingASCII: Bool = false) -> String {
        var out = String.UnicodeScalarView()
        for token in tokens {
            switch token {
            case .any: out.append("%")
            case .one: out.append("_")
            case .literal(var value):
                if lowercasingASCII, value >= 0x41, value <= 0x5A { value += 0x20 }
                guard let scalar = Unicode.Scalar(value) else { continue }
                if scalar == "%" || scalar == "_" || scalar == "\\" { out.append("\\") }
                out.append(scalar)
            }
        }
        return String(out)
    }
}
