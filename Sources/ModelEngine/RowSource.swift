import ModelCore

/// The rows of one table held in memory, as ``QueryEngine`` reads them: in store order
/// without copying, plus indexes (the id, and any indexed columns such as foreign keys)
/// for equality and `IN` predicates.
///
/// ArrayAdapter's tables conform; so does a plain `[[ModelValue]]` (with a linear id
/// lookup), which tests and small tools can query directly.
public protocol RowSource {
    /// The live rows' sequence type.
    associatedtype Rows: Sequence where Rows.Element == [ModelValue]
    /// Live rows in store (insertion) order. Iterating must not copy the table.
    var storeOrderRows: Rows { get }
    /// The live rows for which `test` answers true, in store order. The default walks
    /// ``storeOrderRows``; a table that holds its rows in an array walks them itself, so a
    /// scan (the engine is called from another module, unspecialised) pays neither a
    /// generic iterator nor a second closure per row.
    func rows(where test: ([ModelValue]) -> Bool?) -> [[ModelValue]]
    /// How many live rows `test` answers true for (see ``rows(where:)``).
    func countRows(where test: ([ModelValue]) -> Bool?) -> Int
    /// The rows whose `column` equals one of `values`, with their store positions (for
    /// ordering), found through an index; `nil` when the column has no index. Column 0
    /// (the id) must be indexed.
    func indexedRows(column: Int, equalTo values: [ModelValue]) -> [(position: Int, row: [ModelValue])]?
}

extension RowSource {
    /// The rows of ``storeOrderRows`` for which `test` answers true.
    public func rows(where test: ([ModelValue]) -> Bool?) -> [[ModelValue]] {
        var matches: [[ModelValue]] = []
        for row in storeOrderRows where test(row) == true { matches.append(row) }
        return matches
    }

    /// How many rows of ``storeOrderRows`` `test` answers true for.
    public func countRows(where test: ([ModelValue]) -> Bool?) -> Int {
        var count = 0
        for row in storeOrderRows where test(row) == true { count += 1 }
        return count
    }
}

extension Array: RowSource where Element == [ModelValue] {
    public var storeOrderRows: [[ModelValue]] { self }

    /// Ids only, by a linear scan per id.
    public func indexedRows(column: Int, equalTo values: [ModelValue]) -> [(position: Int, row: [ModelValue])]? {
        guard column == 0 else { return nil }
        return values.compactMap { id in firstIndex { $0.first == id }.map { ($0, self[$0]) } }
    }
}
