import ModelCore

/// Raw SQL read as records, on every SQL adapter.
extension SQLStore {
    /// Runs a SQL query and decodes each row as a model: result columns are matched to the
    /// model's columns by name, and every model column must be present.
    ///
    /// - Throws: the connection's mismatch error naming the missing columns.
    package func records<M: ModelProtocol>(_ type: M.Type, _ sql: String, _ arguments: [ModelValue]) throws -> [M] {
        let schema = M.schema
        let table = try table(for: schema)
        let rows = try reading { connection in
            try connection.rows(sql, arguments, of: table) { names in
                switch SQLResultColumns.positions(of: schema, in: names) {
                case .success(let positions): return positions.enumerated().map { SQLResultSlot($0.element, as: $0.offset) }
                case .failure(let missing): throw Connection.mismatch(missing.message, sql: sql)
                }
            }
        }
        let registry = M.contextRegistry(schema)
        return try rows.map { try M.materialize($0, schema: schema, store: self, registry: registry) }
    }
}
