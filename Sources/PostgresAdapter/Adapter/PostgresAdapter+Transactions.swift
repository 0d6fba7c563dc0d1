import ModelSQL

extension PostgresAdapter {
    /// Runs `body` in a transaction on one connection pinned to this thread: the outermost
    /// level is `BEGIN … COMMIT`, nested levels are `SAVEPOINT`s. A throw rolls back
    /// exactly its level and is rethrown. Tables the transaction changed are published
    /// with `NOTIFY` in the same round trip as `COMMIT`, so other processes hear of them
    /// only if it commits.
    ///
    /// Other threads keep running on other connections (PostgreSQL's `READ COMMITTED`
    /// isolation): they do not see this transaction's changes until it commits, and wait
    /// only for rows it has locked. Inside a transaction a failed statement aborts the
    /// transaction, as PostgreSQL does: catch errors around a nested transaction to keep
    /// going.
    public func withTransaction<R>(_ body: () throws -> R) throws -> R {
        if let pin = pin() { return try nested(pin, body) }
        let connection = try primary.acquire()
        let pin = Pin(connection)
        let thread = currentThreadID()
        do {
            try connection.execute(
                configuration.isolation == .readCommitted ? "BEGIN" : "BEGIN ISOLATION LEVEL \(configuration.isolation.rawValue)")
        } catch {
            primary.release(connection)
            throw error
        }
        pins.withLock { $0[thread] = pin }
        openTransactions.add(1, ordering: .releasing)
        defer {
            pins.withLock { $0[thread] = nil }
            openTransactions.subtract(1, ordering: .releasing)
            primary.release(connection)
        }
        pin.depth = 1
        pin.preparedByLevel = [[:]]
        let result: R
        do {
            result = try body()
        } catch {
            _ = try? connection.execute("ROLLBACK")
            throw error
        }
        do {
            try connection.execute(commitSQL(pin.changed))
        } catch {
            if connection.isInTransaction { _ = try? connection.execute("ROLLBACK") }
            throw error
        }
        // Tables created inside are everyone's now that their DDL committed.
        publish(pin.allPending)
        router.wrote(on: connection)
        return result
    }

    private func nested<R>(_ pin: Pin, _ body: () throws -> R) throws -> R {
        let savepoint = "swiftmodel_\(pin.depth)"
        try pin.connection.execute("SAVEPOINT \(savepoint)")
        pin.depth += 1
        pin.preparedByLevel.append([:])
        let changedBefore = pin.changed
        defer { pin.depth -= 1 }
        let result: R
        do {
            result = try body()
        } catch {
            pin.preparedByLevel.removeLast()
            pin.changed = changedBefore
            _ = try? pin.connection.execute("ROLLBACK TO SAVEPOINT \(savepoint); RELEASE SAVEPOINT \(savepoint)")
            throw error
        }
        let prepared = pin.preparedByLevel.removeLast()
        try pin.connection.execute("RELEASE SAVEPOINT \(savepoint)")
        pin.preparedByLevel[pin.preparedByLevel.count - 1].merge(prepared) { _, new in new }
        return result
    }

    /// `COMMIT`, preceded by the `NOTIFY`s announcing the changed tables.
    private func commitSQL(_ changed: Set<String>) -> String {
        guard let publisher, !changed.isEmpty else { return "COMMIT" }
        return publisher.payloads(changed.sorted()).compactMap { payload in
            SQLText.string(payload).map { "NOTIFY \(ChangePublisher.channel), \($0)" }
        }.joined(separator: "; ") + "; COMMIT"
    }
}
