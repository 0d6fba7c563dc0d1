extension SQLiteAdapter {
    /// Runs `body` in a transaction on the writer: the outermost level is
    /// `BEGIN IMMEDIATE … COMMIT` (so it takes the write lock up front rather than
    /// failing halfway with `SQLITE_BUSY`), nested levels are `SAVEPOINT`s. A throw rolls
    /// back exactly its level and is rethrown. Writes from outside the transaction wait
    /// until the outermost level ends; reads from outside see the last committed state
    /// meanwhile.
    ///
    /// - Throws: ``StoreError`` `.invalidRequest` inside a ``read(_:)`` block or after
    ///   ``close()``.
    public func withTransaction<R>(_ body: () throws -> R) throws -> R {
        if isReadingSnapshot { throw writeInsideReadError() }
        return try writerLock.transaction(
            begin: begin, end: { commit in commit ? try self.commit() : rollBack() }, nested: savepoint, body)
    }

    /// Opens an async transaction's outermost level, suspending while another transaction
    /// owns the writer.
    nonisolated(nonsending) public func beginTransaction(for handle: TransactionHandle) async throws -> (any StoreTransaction)? {
        if isReadingSnapshot { throw writeInsideReadError() }
        try await writerLock.begin(handle, begin)
        return SQLiteTransaction(store: self, handle: handle)
    }

    /// How many async transactions are suspended waiting for the writer.
    package var suspendedTransactions: Int { writerLock.suspendedTransactions }

    /// `BEGIN IMMEDIATE`. Call holding the writer lock.
    private func begin() throws {
        guard !writer.isClosed else { throw closedError() }
        try writer.execute("BEGIN IMMEDIATE")
        levels.begin()
    }

    /// `COMMIT`, then publishes the tables created inside; on failure the transaction is
    /// rolled back. Call holding the writer lock.
    fileprivate func commit() throws {
        let prepared = levels.end()
        do {
            try writer.execute("COMMIT")
        } catch {
            if writer.isInTransaction { try? writer.execute("ROLLBACK") }
            throw error
        }
        catalog.publish(prepared)
    }

    /// `ROLLBACK`, dropping the tables created inside. Call holding the writer lock.
    fileprivate func rollBack() {
        levels.end()
        try? writer.execute("ROLLBACK")
    }

    /// A nested level: a savepoint. Call holding the writer lock.
    private func savepoint<R>(_ body: () throws -> R) throws -> R {
        try levels.savepoint(on: writer, body)
    }
}

/// An async transaction's outermost level on a ``SQLiteAdapter``.
private struct SQLiteTransaction: StoreTransaction {
    let store: SQLiteAdapter
    let handle: TransactionHandle

    func commit() throws {
        defer { store.writerLock.release(handle) }
        try store.writerLock.withLock { try store.commit() }
    }

    func rollback() {
        store.writerLock.withLock { store.rollBack() }
        store.writerLock.release(handle)
    }
}

extension SQLiteAdapter: AdmittingAdapter {
    /// Writes wait for the writer; reads on the reader connections never do.
    package func admission(reads: Bool) -> StoreLock? { reads && readers != nil ? nil : writerLock }
}
