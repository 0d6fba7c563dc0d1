import ModelSQL

extension PostgresAdapter {
    /// Runs `body` in a transaction on one pooled connection pinned to the transaction's
    /// ``TransactionHandle``: the outermost level is `BEGIN … COMMIT`, nested levels are
    /// `SAVEPOINT`s. A throw rolls back exactly its level and is rethrown. Tables the
    /// transaction changed are published with `NOTIFY` in the same round trip as `COMMIT`,
    /// so other processes hear of them only if it commits.
    ///
    /// Callers outside the transaction keep running on other connections (PostgreSQL's
    /// `READ COMMITTED` isolation): they do not see this transaction's changes until it
    /// commits, and wait only for rows it has locked. Inside a transaction a failed
    /// statement aborts the transaction, as PostgreSQL does: catch errors around a nested
    /// transaction to keep going.
    public func withTransaction<R>(_ body: () throws -> R) throws -> R {
        if let pin = pin() { return try pin.lock.withLock { try nested(pin, body) } }
        return try TransactionHandle.withCurrent(for: self) { handle in try outermost(handle, body) }
    }

    /// Opens an async transaction's outermost level on a pooled connection, lent without
    /// blocking. `BEGIN` is queued in the connection's pipeline, not waited for: it goes
    /// out with the transaction's first statement, and a transaction that only writes
    /// sends `BEGIN`, its writes and `COMMIT` in one round trip.
    nonisolated(nonsending) public func beginTransaction(for handle: TransactionHandle) async throws -> (any StoreTransaction)? {
        let connection = try await primary.acquire(on: loop)
        do {
            let local = connection.localSettings(try connection.live())  // behind a pooler: inside the transaction
            try connection.sendUnprepared(beginSQL)
            if let local { try connection.sendUnprepared(local) }
        } catch {
            primary.release(connection)
            throw error
        }
        return PostgresTransaction(store: self, handle: handle, pin: pinned(connection, handle))
    }

    private func outermost<R>(_ handle: TransactionHandle, _ body: () throws -> R) throws -> R {
        let pin = try begin(handle)
        let result: R
        do {
            result = try pin.lock.withLock { try body() }
        } catch {
            end(pin, handle)
            throw error
        }
        try commit(pin, handle)
        return result
    }

    /// Borrows a connection, `BEGIN`s and pins it to `handle`.
    fileprivate func begin(_ handle: TransactionHandle) throws -> Pin {
        let connection = try primary.acquire()
        do {
            try connection.execute(beginSQL)
        } catch {
            primary.release(connection)
            throw error
        }
        return pinned(connection, handle)
    }

    private var beginSQL: String {
        configuration.isolation == .readCommitted ? "BEGIN" : "BEGIN ISOLATION LEVEL \(configuration.isolation.rawValue)"
    }

    /// Pins `connection`, inside its transaction, to `handle`.
    private func pinned(_ connection: PGConnection, _ handle: TransactionHandle) -> Pin {
        let pin = Pin(connection)
        pin.levels.begin()
        pins.withLock { $0[handle.bits] = pin }
        openTransactions.add(1, ordering: .releasing)
        return pin
    }

    /// `COMMIT` with the change notifications, then publishes the tables created inside;
    /// the connection goes back to the pool either way. Pipelined writes are read first: a
    /// failed one, or a statement that failed earlier and was caught (the server aborted
    /// the transaction; a `COMMIT` would silently roll back), throws and rolls back.
    fileprivate func commit(_ pin: Pin, _ handle: TransactionHandle) throws {
        try pin.lock.withLock {
            do {
                try pin.connection.settle()
                if pin.connection.isAborted {
                    throw PostgresError(
                        .transactionAborted, sqlState: "25P02",
                        message: "a statement failed inside the transaction, so it cannot commit; it was rolled back")
                }
                try pin.connection.execute(commitSQL(pin.changed))
            } catch {
                end(pin, handle)
                throw error
            }
            // Tables created inside are everyone's now that their DDL committed.
            catalog.publish(pin.levels.end())
            router.wrote(on: pin.connection)
            unpin(pin, handle)
        }
    }

    /// ``commit(_:_:)`` without blocking: the `NOTIFY`s and `COMMIT` join the pipelined
    /// writes (and a `BEGIN` not yet sent) in one pipeline, whose results are awaited —
    /// even by a cancelled task, which must learn whether its transaction committed. With an
    /// update or delete of a stored record waiting, whose failure (no row) the server does
    /// not see, the writes are settled first: one more round trip.
    fileprivate func commitAsync(_ pin: Pin, _ handle: TransactionHandle) async throws {
        // The body has returned: once off the table, no call finds the pin any more (a
        // call under way on another thread finishes first, holding its lock).
        pin.lock.withLock { _ = pins.withLock { $0.removeValue(forKey: handle.bits) } }
        do {
            // An update or delete that found no row fails on its row count, which only the
            // client judges: the server would commit the rest. Their verdicts come first.
            if pin.connection.pending.contains(where: \.failsOnRowCount) { try await pin.connection.settle(on: loop) }
            // A statement that failed earlier and was caught aborted the transaction: the
            // server would answer `COMMIT` with a rollback (``PGPendingWrite/Kind/commit``).
            if pin.connection.pending.isEmpty, pin.connection.isAborted {
                throw PostgresError(
                    .transactionAborted, sqlState: "25P02",
                    message: "a statement failed inside the transaction, so it cannot commit; it was rolled back")
            }
            for notify in notifications(pin.changed) { try pin.connection.sendUnprepared(notify) }
            try pin.connection.sendUnprepared("COMMIT", as: .commit)
            try await pin.connection.settle(on: loop)
        } catch {
            await rollBack(pin, handle)
            throw error
        }
        catalog.publish(pin.levels.end())
        await router.wrote(on: pin.connection, loop: loop)
        unpin(pin, handle)
    }

    /// ``end(_:_:)`` without blocking.
    fileprivate func rollBack(_ pin: Pin, _ handle: TransactionHandle) async {
        pin.lock.withLock { _ = pins.withLock { $0.removeValue(forKey: handle.bits) } }
        // With writes waiting, `ROLLBACK` joins them (skipped by the server if one failed).
        if !pin.connection.pending.isEmpty { try? pin.connection.sendUnprepared("ROLLBACK") }
        do { try await pin.connection.settle(on: loop) } catch {}
        if pin.connection.isHealthy, pin.connection.isInTransaction {
            _ = try? await pin.connection.execute("ROLLBACK", on: loop)
        }
        unpin(pin, handle)
    }

    /// Rolls back (when still in a transaction) and returns the connection.
    fileprivate func end(_ pin: Pin, _ handle: TransactionHandle) {
        pin.lock.withLock {
            pin.connection.discardPipeline()
            if pin.connection.isInTransaction { _ = try? pin.connection.execute("ROLLBACK") }
            unpin(pin, handle)
        }
    }

    private func unpin(_ pin: Pin, _ handle: TransactionHandle) {
        pins.withLock { $0[handle.bits] = nil }
        openTransactions.subtract(1, ordering: .releasing)
        primary.release(pin.connection)
    }

    /// A savepoint level; a rolled-back level also forgets the tables it changed. Call
    /// holding the pin's lock.
    private func nested<R>(_ pin: Pin, _ body: () throws -> R) throws -> R {
        let changedBefore = pin.changed
        do {
            return try pin.levels.savepoint(on: pin.connection, body)
        } catch {
            pin.changed = changedBefore
            throw error
        }
    }

    /// `COMMIT`, preceded by the `NOTIFY`s announcing the changed tables.
    private func commitSQL(_ changed: Set<String>) -> String {
        (notifications(changed) + ["COMMIT"]).joined(separator: "; ")
    }

    /// One `NOTIFY` per payload announcing the changed tables (none without a publisher).
    private func notifications(_ changed: Set<String>) -> [String] {
        guard let publisher, !changed.isEmpty else { return [] }
        return publisher.payloads(changed.sorted()).compactMap { payload in
            SQLText.string(payload).map { "NOTIFY \(ChangePublisher.channel), \($0)" }
        }
    }
}

/// An async transaction's outermost level on a ``PostgresAdapter``.
private struct PostgresTransaction: StoreTransaction {
    let store: PostgresAdapter
    let handle: TransactionHandle
    let pin: Pin

    func commit() throws { try store.commit(pin, handle) }
    func rollback() { store.end(pin, handle) }
    nonisolated(nonsending) func commit() async throws { try await store.commitAsync(pin, handle) }
    nonisolated(nonsending) func rollback() async { await store.rollBack(pin, handle) }
}

extension PostgresAdapter: AdmittingAdapter {
    /// Each transaction has a connection of its own: no call waits for one.
    package func admission(reads: Bool) -> StoreLock? { nil }
}
