extension PostgresAdapter {
    /// Publishes, on the commit bus, that another process changed these tables: query
    /// observers (`observe`, the async observation API) of them refresh. The notification
    /// names tables, not rows, so no row change reaches contexts or change streams. Entries
    /// are `<schema>.<table>`: tables of other schemas, and tables this adapter has not
    /// prepared, have no observers here and are ignored.
    func externalChange(_ entries: [String]) {
        let prefix = namespace + "."
        let tables = Set(entries.lazy.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) })
        let schemas = tables.compactMap { schema(named: $0) }
        guard !schemas.isEmpty else { return }
        CommitBus.publishExternal([], schemas: schemas, store: self)
    }
}
