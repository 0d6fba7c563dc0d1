/// Transactions: an undo journal per level, the store's lock owned by the transaction's
/// handle from the outermost level's start to its end.
extension ArrayAdapter {
    /// Runs `body` atomically, journaling every change so a throw undoes exactly this
    /// level. Nested calls (inside a transaction the caller is in) are savepoints.
    ///
    /// - Complexity: O(1) to open, O(changes) to roll back.
    public func withTransaction<R>(_ body: () throws -> R) throws -> R {
        try lock.transaction(
            begin: open, end: { commit in commit ? closeLevel(journal.removeLast()) : rollBack(journal.removeLast()) },
            nested: level, body)
    }

    /// Opens an async transaction's outermost level, suspending while another transaction
    /// owns the store.
    nonisolated(nonsending) public func beginTransaction(for handle: TransactionHandle) async throws -> (any StoreTransaction)? {
        try await lock.begin(handle, open)
        return ArrayTransaction(store: self, handle: handle)
    }

    /// Whether the caller is inside a transaction that owns this store.
    package var isInTransactionHere: Bool { lock.isOwnedHere }

    /// How many async transactions are suspended waiting for the store.
    package var suspendedTransactions: Int { lock.suspendedTransactions }

    /// How many transaction levels are open. Call with the lock held.
    package var openLevels: Int { journal.count }

    /// A nested level, holding the lock.
    private func level<R>(_ body: () throws -> R) throws -> R {
        try open()
        let result: R
        do {
            result = try body()
        } catch {
            rollBack(journal.removeLast())
            throw error
        }
        closeLevel(journal.removeLast())
        return result
    }

    /// Opens a level. Call with the lock held.
    private func open() throws {
        if closed { throw StoreError.closed(label) }
        journal.append([])
    }

    /// Ends a committed level: its undo joins the level around it, or, for the outermost,
    /// is dropped and tables compacted. Call with the lock held.
    fileprivate func closeLevel(_ committed: [Undo]) {
        if !journal.isEmpty {
            journal[journal.count - 1] += committed
        } else {
            var seen = Set<ObjectIdentifier>()
            for entry in committed where seen.insert(ObjectIdentifier(entry.table)).inserted { entry.table.compactIfWorthIt() }
        }
    }

    /// Ends an async transaction's outermost level.
    fileprivate func end(_ handle: TransactionHandle, commit: Bool) {
        lock.withLock {
            let level = journal.removeLast()
            if commit { closeLevel(level) } else { rollBack(level) }
        }
        lock.release(handle)
    }
}

/// An async transaction's outermost level on an ``ArrayAdapter``.
private struct ArrayTransaction: StoreTransaction {
    let store: ArrayAdapter
    let handle: TransactionHandle

    func commit() throws { store.end(handle, commit: true) }
    func rollback() { store.end(handle, commit: false) }
}
