extension PostgresAdapter {
    /// Publishes, on the commit bus, that another process changed these tables: query
    /// observers (`observe`, the async observation API) of them refresh. The notification
    /// names tables, not rows, so no row change reaches contexts or change streams. Tables
    /// this adapter has not prepared have no observers here and are ignored.
    func externalChange(_ tables: [String]) {
        let schemas = Set(tables).compactMap { schema(named: $0) }
        guard !schemas.isEmpty else { return }
        CommitBus.publishExternal([], schemas: schemas, store: self)
    }
}
