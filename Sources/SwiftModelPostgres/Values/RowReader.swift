import Foundation
import ModelSQL

/// Reads model rows from a binary result whose columns are the schema's, in order:
/// each value decoded by its type OID, dates in a column's own storage brought back, and
/// values of another kind (a table created by another tool: `integer`, `varchar`,
/// `numeric`, …) cast to the column's type by the casting rules — or reported as
/// ``InvalidStoredValue`` naming the table, row and column.
struct RowReader {
    let table: SQLTable
    let result: PGResult
    let oids: [UInt32]

    init(_ table: SQLTable, _ result: PGResult) throws {
        self.table = table
        self.result = result
        let columns = table.schema.columns.count
        guard result.columnCount >= columns else {
            throw PostgresError(
                .mismatch, message: "the result has \(result.columnCount) columns, \(table.schema.modelName) has \(columns)")
        }
        oids = (0..<columns).map(result.oid)
    }

    var count: Int { result.rowCount }

    /// All rows.
    func rows() throws -> [[ModelValue]] {
        var rows: [[ModelValue]] = []
        rows.reserveCapacity(count)
        for r in 0..<count { rows.append(try row(r)) }
        return rows
    }

    /// Row `r`.
    @inline(__always) func row(_ r: Int) throws -> [ModelValue] {
        let columns = table.columns
        var row: [ModelValue] = []
        row.reserveCapacity(columns.count)
        for k in 0..<columns.count {
            var value = result.value(r, k, oid: oids[k])
            if table.dates[k] != nil { value = table.loaded(value, k) }
            // Arrays and dictionaries go through the casting rules too: JSON has no dates or
            // UUIDs, so typed elements come back from their JSON forms.
            if !value.isNull, !value.isKind(of: columns[k].type) || table.castsJSON[k] { value = try converted(value, r, k) }
            row.append(value)
        }
        return row
    }

    private func converted(_ value: ModelValue, _ r: Int, _ k: Int) throws -> ModelValue {
        let column = table.columns[k]
        do {
            return try Caster.cast(value, to: column.castTarget)
        } catch {
            throw InvalidStoredValue(
                table: table.schema.tableName, id: k == 0 ? nil : result.value(r, 0, oid: oids[0]), column: column.name,
                value: value, reason: "not a \(column.castTarget) value (\(error.reason))")
        }
    }
}
