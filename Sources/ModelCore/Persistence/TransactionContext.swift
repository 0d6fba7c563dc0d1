/// The model layer's side of store transactions: the changes to announce on commit and the
/// record states to restore on rollback, kept per level on the open ``TransactionHandle``.
package enum TransactionContext {
    /// Whether the current task (or thread) is inside a transaction on `adapter`.
    @inline(__always) package static func isOpen(on adapter: any PersistenceAdapter) -> Bool {
        TransactionHandle.current(for: ObjectIdentifier(adapter)) != nil
    }

    /// Whether a transaction on `adapter` is open for the caller and its store work runs
    /// here: a synchronous transaction, or an async one on its own executor (not a call
    /// from another isolation inside it).
    package static func runsHere(on adapter: any PersistenceAdapter) -> Bool {
        guard let handle = TransactionHandle.current(for: ObjectIdentifier(adapter)) else { return false }
        return handle.scope?.isRunningHere ?? true
    }

    /// Records a committed-if-the-transaction-commits change, or delivers it now when no
    /// transaction is open. `record` is the record written (`instance`, typed, or nil) and
    /// `undo` makes what puts it back if the transaction rolls back (given the isolation to
    /// restore it in), used only inside a transaction and only for the record's first write
    /// at a level. (A non-escaping closure reads the caller's state in place: passing the state
    /// itself copied it out of line several times per save.) `change` is only built when
    /// it will be announced.
    package static func record(
        _ change: @autoclosure () -> ModelChange, schema: ModelSchema, instance: AnyObject?,
        adapter: any PersistenceAdapter, undoing record: ModelObject? = nil,
        _ undo: (_ isolation: (any Actor)?) -> RecordUndo? = { _ in nil }
    ) {
        // A change is kept for the commit only while something takes changes: like one
        // made outside a transaction, it goes to the listeners there are when it is made.
        // (The transaction and the suppression flag are task-locals, each read once and only
        // when it matters: most saves run with nobody listening.)
        if let handle = TransactionHandle.current(for: ObjectIdentifier(adapter)) {
            let hasListeners = ModelNotifications.hasListeners
            let registryActive = RegistryHub.takesChange(from: instance, record: record)
            let suppressed = (hasListeners || registryActive) && ModelNotifications.areSuppressed
            let keeps = (!suppressed && hasListeners) || registryActive
            if handle.note(change, schema: schema, instance: instance, announce: !suppressed, keepsChange: keeps, undoing: record, undo) {
                return
            }
        }
        guard CommitBus.hasListeners else { return }
        let suppressed = ModelNotifications.areSuppressed
        if (!suppressed && ModelNotifications.hasListeners) || RegistryHub.takesChange(from: instance, record: record) {
            CommitBus.publish(change(), instance: instance, announce: !suppressed, schema: schema, store: ObjectIdentifier(adapter))
        } else {
            TableObservers.notify(store: ObjectIdentifier(adapter), schemas: [schema])
        }
    }

    /// Runs `body` as one transaction level of `adapter`: the outermost opens a handle and
    /// binds it for the body; inside one, a savepoint.
    static func run<R>(on adapter: any PersistenceAdapter, _ body: () throws -> R) throws -> R {
        if let handle = TransactionHandle.current(for: ObjectIdentifier(adapter)) {
            return try level(of: handle, body)
        }
        let handle = TransactionHandle(store: adapter, outer: TransactionHandle.innermost)
        defer { handle.close() }
        return try TransactionHandle.$innermost.withValue(handle) { try level(of: handle, body) }
    }

    /// Runs `body` as the outermost level of `handle`'s transaction on `adapter`, with the
    /// handle bound (an async transaction's thread, for adapters whose transactions belong
    /// to threads).
    static func runOutermost<R>(_ handle: TransactionHandle, on adapter: any PersistenceAdapter, _ body: () throws -> R) throws -> R {
        defer { handle.close() }
        return try TransactionHandle.$innermost.withValue(handle) { try level(of: handle, body) }
    }

    private static func level<R>(of handle: TransactionHandle, _ body: () throws -> R) throws -> R {
        handle.pushLevel()
        let result: R
        do {
            result = try handle.store.withTransaction(body)
        } catch {
            handle.popLevel().restore(writtenIn: handle.store)
            throw error
        }
        let level = handle.popLevel()
        if handle.depth == 0 {
            handle.close()
            // The level's undo goes with it. (Records still name the level in
            // `__undoLevel`: a number never reused, so no later write matches it.)
            level.publish(to: handle.key)
        } else {
            handle.merge(level)
        }
        return result
    }
}

extension TransactionHandle.Level {
    /// Announces a committed outermost level.
    func publish(to store: ObjectIdentifier) {
        // Read in place: copying each entry out costs a retain and release per value.
        changes.withUnsafeBufferPointer { CommitBus.publish($0, schemas: schemas, store: store) }
    }

    /// Puts back every record written at a rolled-back level of a transaction on `store`
    /// that still exists, on the calling thread (a synchronous transaction: every write
    /// came from its body).
    consuming func restore(writtenIn store: any PersistenceAdapter) {
        for (record, undo) in log.takeForRollback(level: serial) { undo.restore(record, writtenIn: store) }
    }
}

extension PersistenceAdapter {
    /// Runs `body` atomically on this store: every write inside commits together or not at
    /// all. A nested call is a savepoint: throwing undoes exactly its own level.
    ///
    /// Change notifications for writes inside are delivered after the outermost level
    /// commits, and none for work that rolled back; records saved or deleted in a level that
    /// rolls back get their previous state back.
    ///
    /// ```swift
    /// try store.transaction {
    ///     try from.save()
    ///     try to.save()        // if this throws, `from` is not saved either
    /// }
    /// ```
    @discardableResult
    public func transaction<R>(_ body: () throws -> R) throws -> R {
        try TransactionContext.run(on: self, body)
    }

    /// Runs `body` atomically on this store, handing it the transaction's
    /// ``TransactionHandle`` (see ``transaction(_:)-(()throws->R)``).
    ///
    /// ```swift
    /// try store.transaction { tx in
    ///     try order.save()
    ///     try? tx.savepoint { try todo.save() }   // may fail alone
    /// }
    /// ```
    @discardableResult
    public func transaction<R>(_ body: (TransactionHandle) throws -> R) throws -> R {
        try TransactionContext.run(on: self) {
            guard let handle = TransactionHandle.current(for: ObjectIdentifier(self)) else {
                throw StoreError(.invalidRequest, table: "", message: "the transaction ended before its body ran")
            }
            return try body(handle)
        }
    }
}
