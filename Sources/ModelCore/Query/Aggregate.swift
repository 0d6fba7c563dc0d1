/// An aggregate over the rows a ``StoreQuery`` selects, optionally per group.
///
/// The rows aggregated are those the query selects *after* sort, offset and limit (an
/// aggregate of `first(10)` is over those ten rows). Semantics, shared by every adapter:
///
/// | function | result | no rows (or only nulls) |
/// | --- | --- | --- |
/// | `count` without a column | number of rows (`.int`) | `0` |
/// | `count` of a column | non-null values (`.int`) | `0` |
/// | `sum` | `.int` when every value is an integer or bool (overflow is an error), else `.double` | `null` |
/// | `average` | `.double` | `null` |
/// | `min`, `max` | the least / greatest non-null value in sort order | `null` |
///
/// Groups come back ordered by their keys ascending (nulls first), one per distinct key
/// tuple; nulls form one group, as in SQL.
public struct Aggregate: Sendable, Hashable {
    /// The function applied.
    public enum Function: String, Sendable, Hashable, CaseIterable {
        case count, sum, average, min, max
    }

    /// The function.
    public var function: Function
    /// The column's row index; `nil` only for `count` (count rows).
    public var column: Int?
    /// Group-by columns' row indexes (empty: one group of everything).
    public var groupBy: [Int]

    /// Creates an aggregate.
    public init(_ function: Function, column: Int?, groupBy: [Int] = []) {
        self.function = function
        self.column = column
        self.groupBy = groupBy
    }
}

/// One group's result: its key values (in ``Aggregate/groupBy`` order; empty when not
/// grouped) and the aggregate's value.
public struct AggregateGroup: Sendable, Hashable, CustomStringConvertible {
    /// The group-by columns' values.
    public var keys: [ModelValue]
    /// The aggregate (see ``Aggregate`` for types and the empty case).
    public var value: ModelValue

    /// Creates a group result.
    public init(keys: [ModelValue], value: ModelValue) {
        self.keys = keys
        self.value = value
    }

    /// The single key, for one group-by column.
    public var key: ModelValue { keys.first ?? .null }

    public var description: String { "\(keys) → \(value)" }
}
