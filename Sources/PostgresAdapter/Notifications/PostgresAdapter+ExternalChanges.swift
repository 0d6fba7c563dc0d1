extension PostgresAdapter {
    /// Refreshes this process's query observers (`observe`, the async observation API) of
    /// tables another process changed. Tables this adapter has not prepared have no
    /// observers here and are ignored.
    func externalChange(_ tables: [String]) {
        let schemas = Set(tables).compactMap { schema(named: $0) }
        guard !schemas.isEmpty else { return }
        TableObservers.notify(store: ObjectIdentifier(self), schemas: schemas)
    }
}
