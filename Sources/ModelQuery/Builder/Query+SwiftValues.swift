/// Batch updates and grouping with ordinary Swift values and key paths.
///
/// ```swift
/// let cutoff = Date.now
/// try Chore.where(\.due < cutoff).updateAll(\.done, to: true)
/// try Chore.query().updateAll([\.done: false, \.priority: 1])
/// try Chore.query().updateAll(["priority": level])            // level: Int
/// try Person.query().group(by: \.city).count()
/// ```
extension Query {
    /// ``updateAll(_:)-ModelValue`` with Swift values by column name.
    ///
    /// - Returns: how many records changed.
    @discardableResult
    public func updateAll(_ values: [String: any ModelValueConvertible]) throws -> Int {
        try updateAll(values.mapValues(\.modelValue))
    }

    /// Sets one column, named by key path, on every selected record (as ``updateAll(_:)-ModelValue``).
    ///
    /// - Returns: how many records changed.
    @discardableResult
    public func updateAll<V: ColumnValue>(_ keyPath: KeyPath<M, V>, to value: V) throws -> Int {
        try updateAll([keyPath: value])
    }

    /// Sets columns named by key paths on every selected record (as ``updateAll(_:)-ModelValue``).
    ///
    /// - Throws: ``QueryError`` `.unknownColumn` for a key path that is not one `@Column`,
    ///   and as ``updateAll(_:)-ModelValue``.
    /// - Returns: how many records changed.
    @discardableResult
    public func updateAll(_ values: [PartialKeyPath<M>: any ModelValueConvertible]) throws -> Int {
        try updateAll(Self.named(values))
    }

    /// Values by key path as values by column name.
    static func named(_ values: [PartialKeyPath<M>: any ModelValueConvertible]) throws(QueryError) -> [String: ModelValue] {
        let resolver = ColumnResolver<M>()
        var named: [String: ModelValue] = [:]
        for (keyPath, value) in values { named[M.schema.columns[try resolver.slot(partial: keyPath)].name] = value.modelValue }
        return named
    }
}

extension Query {
    /// Groups the selected records by columns named by key paths, for grouped aggregates.
    ///
    /// ```swift
    /// try Person.query().group(by: \.city).sum("score")
    /// ```
    public func group(by keyPaths: PartialKeyPath<M>...) -> GroupedQuery<M> {
        let names = Result { () throws(QueryError) -> [String] in
            let resolver = ColumnResolver<M>()
            var names: [String] = []
            for keyPath in keyPaths { names.append(M.schema.columns[try resolver.slot(partial: keyPath)].name) }
            return names
        }
        switch names {
        case .success(let names): return group(by: names)
        case .failure(let error): return GroupedQuery(query: self, columns: .failure(error))
        }
    }
}
