extension SQLiteAdapter {
    /// Runs `body` in a transaction on the writer: the outermost level is
    /// `BEGIN IMMEDIATE … COMMIT` (so it takes the write lock up front rather than
    /// failing halfway with `SQLITE_BUSY`), nested levels are `SAVEPOINT`s. A throw rolls
    /// back exactly its level and is rethrown. Other threads' writes wait until the
    /// outermost level ends; their reads see the last committed state meanwhile.
    ///
    /// - Throws: ``StoreError`` `.invalidRequest` inside a ``read(_:)`` block or after
    ///   ``close()``.
    public func withTransaction<R>(_ body: () throws -> R) throws -> R {
        if isReadingSnapshot { throw writeInsideReadError() }
        writerLock.lock()
        defer { writerLock.unlock() }
        guard !writer.isClosed else { throw closedError() }
        let level = depth
        let savepoint = "swiftmodel_\(level)"
        if level == 0 {
            try writer.execute("BEGIN IMMEDIATE")
            transactionOwner.store(currentThreadID(), ordering: .releasing)
        } else {
            try writer.execute("SAVEPOINT \(savepoint)")
        }
        depth += 1
        preparedByLevel.append([])
        let result: R
        do {
            result = try body()
        } catch {
            depth -= 1
            forget(preparedByLevel.removeLast())
            if level == 0 {
                try? writer.execute("ROLLBACK")
                transactionOwner.store(0, ordering: .releasing)
            } else {
                try? writer.execute("ROLLBACK TO \(savepoint); RELEASE \(savepoint)")
            }
            throw error
        }
        depth -= 1
        let prepared = preparedByLevel.removeLast()
        if level == 0 {
            defer { transactionOwner.store(0, ordering: .releasing) }
            do {
                try writer.execute("COMMIT")
            } catch {
                if writer.isInTransaction { try? writer.execute("ROLLBACK") }
                forget(prepared)
                throw error
            }
        } else {
            do {
                try writer.execute("RELEASE \(savepoint)")
            } catch {
                try? writer.execute("ROLLBACK TO \(savepoint); RELEASE \(savepoint)")
                forget(prepared)
                throw error
            }
            preparedByLevel[preparedByLevel.count - 1] += prepared
        }
        return result
    }
}
