import Foundation
import ModelEngine
import ModelSQL

/// SQLite's spelling of the shared SQL (``SQLCompiler``): `?` placeholders, `1`/`0`,
/// `IS`, `rowid` as the store-order key, `LIMIT -1` for no limit, `LIKE … ESCAPE` for
/// case-insensitive matching and `GLOB` for case-sensitive matching (so no connection
/// setting changes `LIKE`), with strings holding a NUL byte — which `LIKE` and `GLOB`
/// would cut short — matched by `swiftmodel_match`, the in-memory engine's matcher.
package struct SQLiteDialect: SQLDialect {
    package static let shared = SQLiteDialect()

    package func placeholder(_ n: Int) -> String { "?" }
    package var trueCondition: String { "1" }
    package var falseCondition: String { "0" }
    package func isNotDistinct(_ a: String, _ b: String) -> String { "\(a) IS \(b)" }
    // SQLite sorts nulls first ascending and last descending already.
    package func orderKey(_ column: String, ascending: Bool, nullable: Bool) -> String {
        ascending ? column : column + " DESC"
    }
    package func rowKey(_ schema: ModelSchema) -> String { "rowid" }

    package func window(limit: String?, offset: String?) -> String {
        // No limit is `LIMIT -1` in SQLite (OFFSET needs a LIMIT).
        " LIMIT " + (limit ?? "-1") + (offset.map { " OFFSET " + $0 } ?? "")
    }

    package func textMatch(
        _ column: String, _ op: TextOperator, _ text: String, caseInsensitive: Bool, bind: (ModelValue) -> String
    ) -> String {
        let exact = "\(MatchFunction.name)(\(column), \(bind(.string(op.rawValue))), \(bind(.string(text))), \(caseInsensitive ? 1 : 0))"
        if text.utf8.contains(0) { return exact }
        let tokens = TextMatcher.tokens(op, text)
        let native =
            caseInsensitive
            ? "\(column) LIKE \(bind(.string(Self.likePattern(tokens)))) ESCAPE '\\'"
            : "\(column) GLOB \(bind(.string(Self.globPattern(tokens))))"
        // LIKE and GLOB stop at a NUL byte; such strings go through the exact matcher.
        return "(CASE WHEN instr(CAST(\(column) AS BLOB), x'00') > 0 THEN \(exact) ELSE \(native) END)"
    }

    // SQLite compares across storage classes itself, as the engine does.
    package func operand(_ column: String, _ type: ColumnType, comparedWith value: ModelValue) -> String? { column }

    package func aggregate(_ function: Aggregate.Function, _ target: String, columnType: ColumnType?) -> String {
        switch function {
        case .count: "count(\(target))"
        case .sum: "sum(\(target))"
        case .average: "avg(\(target))"
        case .min: "min(\(target))"
        case .max: "max(\(target))"
        }
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

    /// A literal for a declared default in DDL (`DEFAULT …`), in the storage the adapter
    /// uses for the value's kind.
    static func literal(_ value: ModelValue) -> String? {
        switch value {
        case .null: return "NULL"
        case .bool(let b): return b ? "1" : "0"
        case .int(let i): return String(i)
        case .double(let d): return d.isFinite ? "\(d)" : nil
        case .string(let s): return SQLText.string(s)
        case .date(let d):
            let t = d.timeIntervalSinceReferenceDate
            return t.isFinite ? "\(t)" : nil
        case .uuid(let u): return SQLText.string(u.uuidString)
        case .data(let data): return "X'" + SQLText.hex(data) + "'"
        case .array, .dictionary: return SQLText.string(ModelJSON.serialize(value))
        }
    }
}
