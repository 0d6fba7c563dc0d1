import ModelEngine
import ModelSQL

/// PostgreSQL's spelling of the shared SQL (``SQLCompiler``): `$n` placeholders,
/// `TRUE`/`FALSE`, `IS NOT DISTINCT FROM`, explicit `NULLS FIRST`/`NULLS LAST` (PostgreSQL
/// sorts nulls the other way by default), the integer id — or the hidden
/// `swiftmodel_seq` column for other ids — as the store-order key, and `LIKE … ESCAPE`
/// for matching. Case-insensitive matching folds ASCII letters only (`translate`), as the
/// in-memory engine does, whatever the database's locale; text columns are declared
/// `COLLATE "C"`, so comparisons and ordering are by UTF-8 bytes everywhere.
package struct PostgresDialect: SQLDialect {
    package static let shared = PostgresDialect()

    /// The hidden column that keeps insertion order for tables whose id is not an integer.
    static let sequenceColumn = "swiftmodel_seq"

    package func placeholder(_ n: Int) -> String { "$\(n)" }

    package func rowLockClause(_ lock: RowLock) -> String {
        switch lock.wait {
        case .wait: " FOR UPDATE"
        case .skipLocked: " FOR UPDATE SKIP LOCKED"
        case .noWait: " FOR UPDATE NOWAIT"
        }
    }
    package var trueCondition: String { "TRUE" }
    package var falseCondition: String { "FALSE" }
    package func isNotDistinct(_ a: String, _ b: String) -> String { "\(a) IS NOT DISTINCT FROM \(b)" }
    package func orderKey(_ column: String, ascending: Bool, nullable: Bool) -> String {
        guard nullable else { return ascending ? column + " ASC" : column + " DESC" }
        return ascending ? column + " ASC NULLS FIRST" : column + " DESC NULLS LAST"
    }

    package func rowKey(_ schema: ModelSchema) -> String {
        schema.columns[0].type == .int ? SQLText.quote(schema.columns[0].name) : SQLText.quote(Self.sequenceColumn)
    }

    package func window(limit: String?, offset: String?) -> String {
        (limit.map { " LIMIT " + $0 } ?? "") + (offset.map { " OFFSET " + $0 } ?? "")
    }

    static let upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    static let lower = "abcdefghijklmnopqrstuvwxyz"

    package func textMatch(
        _ column: String, _ op: TextOperator, _ text: String, caseInsensitive: Bool, bind: (ModelValue) -> String
    ) -> String {
        let tokens = TextMatcher.tokens(op, text)
        if caseInsensitive {
            let pattern = bind(.string(Self.likePattern(tokens, lowercasingASCII: true)))
            return "translate(\(column), '\(Self.upper)', '\(Self.lower)') LIKE \(pattern) ESCAPE '\\'"
        }
        return "\(column) LIKE \(bind(.string(Self.likePattern(tokens)))) ESCAPE '\\'"
    }

    package func operand(_ column: String, _ type: ColumnType, comparedWith value: ModelValue) -> String? {
        switch (type, value) {
        // A bigint against a double that is no Int64 (a fraction, or beyond the range):
        // exactly, through numeric, as the memory engine compares them (a bigint parameter
        // cannot carry it, and double precision would round large integers).
        case (.int, .double(let d)) where Int64(exactly: d) == nil && d.isFinite: return "\(column)::numeric"
        case (.int, .int), (.int, .double), (.double, .int), (.double, .double), (.bool, .bool), (.string, .string),
            (.text, .string), (.date, .date), (.uuid, .uuid), (.data, .data), (.array, _), (.dictionary, _):
            return column
        // Booleans compare with numbers as 0 and 1.
        case (.bool, .int): return "\(column)::int"
        case (.bool, .double): return "\(column)::int::double precision"
        case (.int, .bool), (.double, .bool): return column
        default: return nil
        }
    }

    package func aggregate(_ function: Aggregate.Function, _ target: String, columnType: ColumnType?) -> String {
        // Booleans count as 0/1 in sums and averages, as in the other adapters; PostgreSQL
        // has no sum/min/max of boolean or min/max of uuid, so those go through integers
        // (bool_and/bool_or) and text (same order as the bytes).
        let number = columnType == .bool ? "\(target)::int" : target
        switch function {
        case .count: return "count(\(target))"
        // sum(bigint) is numeric in PostgreSQL: back to bigint (out of range is 22003,
        // reported as integer overflow); avg is a double, as in the other adapters.
        case .sum: return columnType == .int || columnType == .bool ? "sum(\(number))::bigint" : "sum(\(number))"
        // avg(double precision) also accumulates squares (for variance), which overflow
        // for values near 1e300: sum / count keeps the engine's range.
        case .average:
            return columnType == .double
                ? "(sum(\(number)) / nullif(count(\(number)), 0))" : "avg(\(number))::double precision"
        case .min, .max:
            let name = function == .min ? "min" : "max"
            switch columnType {
            case .bool?: return function == .min ? "bool_and(\(target))" : "bool_or(\(target))"
            case .uuid?: return "\(name)(\(target)::text)::uuid"
            default: return "\(name)(\(target))"
            }
        }
    }
}
