import ModelCore

/// The foreign keys a SQL table declares for a schema's `@BelongsTo` relations, with the
/// `ON DELETE` action matching the inverse relation's delete rule.
package enum SQLForeignKeys {
    /// Per `@BelongsTo`: the row index of the key, the parent schema, the `ON DELETE` action.
    package static func of(_ schema: ModelSchema) throws -> [(column: Int, parent: ModelSchema, onDelete: String)] {
        var keys: [(Int, ModelSchema, String)] = []
        for relation in try schema.relations() where relation.kind == .belongsTo {
            let inverse = try relation.target.relations().first {
                ($0.kind == .hasMany || $0.kind == .hasOne) && $0.target === schema && $0.foreignKey == relation.foreignKey
            }
            keys.append((relation.foreignKey, relation.target, action(inverse?.rule ?? .nullify)))
        }
        return keys
    }

    /// The `ON DELETE` action that keeps the database consistent with a relation's rule
    /// when a parent row is removed without the model layer (`delete()`, `deleteAll()`,
    /// raw SQL): the model layer's own cascade runs first on `destroy()`.
    package static func action(_ rule: DeleteRule) -> String {
        switch rule {
        case .destroy, .delete: "CASCADE"
        case .nullify: "SET NULL"
        case .restrict: "RESTRICT"
        }
    }
}

/// One row of a raw SQL result (`rows(_:_:)` on the SQL adapters), by column name or
/// position.
///
/// ```swift
/// for row in try store.rows("SELECT city, count(*) AS n FROM people GROUP BY city") {
///     print(row["city"] ?? .null, row["n"] ?? .null)
/// }
/// ```
public struct SQLRow: Sendable, Hashable {
    /// The result column names.
    public let columns: [String]
    /// The values, in column order.
    public let values: [ModelValue]

    /// A row of values under column names.
    public init(columns: [String], values: [ModelValue]) {
        self.columns = columns
        self.values = values
    }

    /// The value of the first column with this name, or nil when there is none.
    public subscript(_ column: String) -> ModelValue? {
        columns.firstIndex(of: column).map { values[$0] }
    }

    /// The value at a position.
    public subscript(_ index: Int) -> ModelValue { values[index] }
}
