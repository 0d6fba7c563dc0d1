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
    /// The rows whose `column` equals one of `values`, with their store positions (for
    /// ordering), found through an index; `nil` when the column has no index. Column 0
    /// (the id) must be indexed.
    func indexedRows(column: Int, equalTo values: [ModelValue]) -> [(position: Int, row: [ModelValue])]?
}

extension Array: RowSource where Element == [ModelValue] {
    public var storeOrderRows: [[ModelValue]] { self }

    /// Ids only, by a linear scan per id.
    public func indexedRows(column: Int, equalTo values: [ModelValue]) -> [(position: Int, row: [ModelValue])]? {
        guard column == 0 else { return nil }
        return values.compactMap { id in firstIndex { $0.first == id }.map { ($0, self[$0]) } }
    }
}
