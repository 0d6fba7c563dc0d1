import ModelCore

/// Raw SQL results read as model rows (`fetch(sql:)` on the SQL adapters): result columns
/// are matched to the model's columns by name, and every model column must be present.
package enum SQLResultColumns {
    /// The position in a result with columns `names` of each of `schema`'s columns, in row
    /// order; or the message naming the model columns the result lacks.
    package static func positions(of schema: ModelSchema, in names: [String]) -> Result<[Int], Missing> {
        var positions: [Int] = []
        var missing: [String] = []
        for column in schema.columns {
            if let k = names.firstIndex(of: column.name) { positions.append(k) } else { missing.append(column.name) }
        }
        guard missing.isEmpty else {
            return .failure(Missing(message: "the result lacks \(schema.modelName) column(s) \(missing.joined(separator: ", "))"))
        }
        return .success(positions)
    }

    /// Model columns a result lacks, described for the adapter's mismatch error.
    package struct Missing: Error {
        package let message: String
    }
}
