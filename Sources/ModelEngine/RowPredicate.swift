import Foundation
import ModelCore

/// A ``QueryPredicate`` compiled once per query into closures over a row, with the same
/// three-valued answers as ``QueryEngine/evaluate(_:_:)``.
///
/// Evaluating the predicate tree itself re-reads the tree for every row: each row
/// destructures the enum cases, copies their operands (retaining strings and arrays) and
/// pairs both values in a tuple to find how they compare — about 440 instructions a row
/// for `age BETWEEN 30 AND 40 AND city = "Paris"`, over 80 % of an in-memory filter.
/// Compiled, the operands are taken apart once, and a comparison whose row value has the
/// operand's own kind (an `int` column against an `int`, a `string` against a `string`)
/// is decided without the general comparison; any other pairing — nulls, mixed number
/// kinds, values of other kinds — goes to ``QueryEngine/compare(_:_:_:)`` as before.
package struct RowPredicate {
    /// The predicate's answer for one row: `true`, `false` or `nil` (unknown).
    package let test: ([ModelValue]) -> Bool?

    package init(_ predicate: QueryPredicate) {
        test = Self.compile(predicate)
    }

    private static func compile(_ predicate: QueryPredicate) -> ([ModelValue]) -> Bool? {
        switch predicate {
        case .compare(let column, let op, let value):
            return comparison(column, op, value)
        case .isNull(let column):
            return { row in row[column].isNull }
        case .isNotNull(let column):
            return { row in !row[column].isNull }
        case .between(let column, .int(let low), .int(let high)):
            return { row in
                if case .int(let a) = row[column] { return a >= low && a <= high }
                return QueryEngine.and(
                    QueryEngine.compare(row[column], .greaterOrEqual, .int(low)),
                    QueryEngine.compare(row[column], .lessOrEqual, .int(high)))
            }
        case .between(let column, let low, let high):
            let atLeast = comparison(column, .greaterOrEqual, low)
            let atMost = comparison(column, .lessOrEqual, high)
            return { row in QueryEngine.and(atLeast(row), atMost(row)) }
        case .and(let parts):
            return conjunction(parts[...])
        case .or(let parts):
            return disjunction(parts[...])
        case .not(let inner):
            let test = compile(inner)
            return { row in test(row).map { !$0 } }
        case .isIn(let column, let values):
            if let test = hashedMembership(column, values) { return test }
            return { row in QueryEngine.evaluate(predicate, row) }
        case .notIn(let column, let values):
            if let test = hashedMembership(column, values) { return { row in test(row).map { !$0 } } }
            return { row in QueryEngine.evaluate(predicate, row) }
        case .text:
            return { row in QueryEngine.evaluate(predicate, row) }
        }
    }

    /// `parts` joined by three-valued AND, as a chain of closures (each part compiled on its
    /// own: closures kept in an array are called through a reabstraction thunk, which
    /// cost more than an integer range test itself).
    private static func conjunction(_ parts: ArraySlice<QueryPredicate>) -> ([ModelValue]) -> Bool? {
        guard let head = parts.first else { return { _ in true } }
        let first = compile(head)
        if parts.count == 1 { return first }
        let rest = conjunction(parts.dropFirst())
        return { row in
            let a = first(row)
            if a == false { return false }
            return QueryEngine.and(a, rest(row))
        }
    }

    /// `parts` joined by three-valued OR, as ``conjunction(_:)`` joins them by AND.
    private static func disjunction(_ parts: ArraySlice<QueryPredicate>) -> ([ModelValue]) -> Bool? {
        guard let head = parts.first else { return { _ in false } }
        let first = compile(head)
        if parts.count == 1 { return first }
        let rest = disjunction(parts.dropFirst())
        return { row in
            let a = first(row)
            if a == true { return true }
            return QueryEngine.or(a, rest(row))
        }
    }

    /// `row[column] IN values` through a set, for a long list whose members are integers,
    /// UUIDs, dates or bytes: kinds whose hashing equality is exactly the comparison's, so
    /// a subject of those kinds is decided by one lookup. Any other subject (a double that
    /// may equal an integer, a string) is compared with each member as before. Nil for a
    /// short list, or one with another kind: a scan of a few values costs less than hashing.
    private static func hashedMembership(_ column: Int, _ values: [ModelValue]) -> (([ModelValue]) -> Bool?)? {
        guard values.count > 16, values.allSatisfy(QueryEngine.hashesExactly) else { return nil }
        let members = Set(values.lazy.filter { !$0.isNull })
        let unknownIfAbsent = values.contains(where: \.isNull)
        return { row in
            let subject = row[column]
            if subject.isNull { return nil }
            guard QueryEngine.hashesExactly(subject) else { return QueryEngine.membership(subject, values) }
            return members.contains(subject) ? true : (unknownIfAbsent ? nil : false)
        }
    }

    /// `row[column] op value`, deciding same-kind scalar pairs directly.
    private static func comparison(_ column: Int, _ op: ComparisonOperator, _ value: ModelValue) -> ([ModelValue]) -> Bool? {
        switch value {
        case .int(let b):
            return { row in
                if case .int(let a) = row[column] { return op.holds(ModelValue.order(a, b)) }
                return QueryEngine.compare(row[column], op, value)
            }
        case .double(let b) where !b.isNaN:
            return { row in
                if case .double(let a) = row[column], !a.isNaN { return op.holds(ModelValue.order(a, b)) }
                return QueryEngine.compare(row[column], op, value)
            }
        case .string(let b) where op == .equal || op == .notEqual:
            // Strings of different byte lengths differ: most rows are decided without
            // comparing bytes.
            let length = b.utf8.count
            let wantsEqual = op == .equal
            return { row in
                if case .string(let a) = row[column] {
                    return (a.utf8.count == length && ModelValue.compareBinary(a, b) == .orderedSame) == wantsEqual
                }
                return QueryEngine.compare(row[column], op, value)
            }
        case .string(let b):
            return { row in
                if case .string(let a) = row[column] { return op.holds(ModelValue.compareBinary(a, b)) }
                return QueryEngine.compare(row[column], op, value)
            }
        case .date(let b):
            let seconds = b.timeIntervalSince1970
            return { row in
                if case .date(let a) = row[column] { return op.holds(ModelValue.order(a.timeIntervalSince1970, seconds)) }
                return QueryEngine.compare(row[column], op, value)
            }
        case .null:
            return { _ in nil }
        default:
            return { row in QueryEngine.compare(row[column], op, value) }
        }
    }
}

extension ComparisonOperator {
    /// Whether two values in `order` satisfy the operator.
    @inline(__always) func holds(_ order: ComparisonResult) -> Bool {
        switch self {
        case .equal: order == .orderedSame
        case .notEqual: order != .orderedSame
        case .less: order == .orderedAscending
        case .lessOrEqual: order != .orderedDescending
        case .greater: order == .orderedDescending
        case .greaterOrEqual: order != .orderedAscending
        }
    }
}
