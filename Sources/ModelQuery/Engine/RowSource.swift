/// The rows of one table held in memory, as ``QueryEngine`` reads them: in store order
/// without copying, plus an id index for id predicates.
///
/// ArrayAdapter's tables conform; so does a plain `[[ModelValue]]` (with a linear id
/// lookup), which tests and small tools can query directly.
public protocol RowSource {
    /// The live rows' sequence type.
    associatedtype Rows: Sequence where Rows.Element == [ModelValue]
    /// Live rows in store (insertion) order. Iterating must not copy the table.
    var storeOrderRows: Rows { get }
    /// The store position (for ordering) and row of the row with this id.
    func locate(id: ModelValue) -> (position: Int, row: [ModelValue])?
}

extension Array: RowSource where Element == [ModelValue] {
    public var storeOrderRows: [[ModelValue]] { self }

    /// - Complexity: O(n).
    public func locate(id: ModelValue) -> (position: Int, row: [ModelValue])? {
        guard let k = firstIndex(where: { $0.first == id }) else { return nil }
        return (k, self[k])
    }
}
