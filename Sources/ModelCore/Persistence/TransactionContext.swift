/// What happened inside open store transactions on this thread: changes to announce on
/// commit, and record states to restore on rollback, one level per savepoint.
///
/// Transactions run synchronously on the calling thread, so this is thread-local.
package final class TransactionContext {
    package struct Level {
        /// Changes to hand on at commit: the record that wrote each, and whether it is
        /// announced (false while notifications are suppressed: contexts still merge it).
        var changes: [(ModelChange, AnyObject?, announce: Bool)] = []
        /// Records written at this level and how to restore their state before (on
        /// rollback; held strongly until the transaction ends). See ``RecordUndo``.
        var undo: [RecordUndo] = []
        /// The schemas written at this level (for ``TableObservers``), repeats mostly
        /// skipped.
        var schemas: [ModelSchema] = []
    }

    let adapter: ObjectIdentifier
    var levels: [Level] = []

    init(adapter: ObjectIdentifier) { self.adapter = adapter }

    private final class Stack { var contexts: [TransactionContext] = [] }
    private static let stacks = ThreadLocal<Stack>()

    /// The innermost open transaction on `adapter` on this thread.
    static func current(for adapter: ObjectIdentifier) -> TransactionContext? {
        guard let stack = stacks.value, !stack.contexts.isEmpty else { return nil }
        return stack.contexts.last { $0.adapter == adapter }
    }

    /// Whether a transaction on `adapter` is open on this thread.
    package static func isOpen(on adapter: any PersistenceAdapter) -> Bool {
        guard let stack = stacks.value, !stack.contexts.isEmpty else { return false }
        return current(for: ObjectIdentifier(adapter)) != nil
    }

    /// Records a committed-if-the-transaction-commits change, or delivers it now when no
    /// transaction is open. `undo` is the record and the state it gets back if the
    /// transaction rolls back. `change` is only built when it will be announced.
    package static func record(
        _ change: @autoclosure () -> ModelChange, schema: ModelSchema, instance: AnyObject?,
        adapter: any PersistenceAdapter, undo: (ModelObject, RecordState)?
    ) {
        let suppressed = ModelNotifications.areSuppressed
        let merges = RegistryHub.isActive
        guard let context = current(for: ObjectIdentifier(adapter)), !context.levels.isEmpty else {
            guard CommitBus.hasListeners else { return }
            if (!suppressed && ModelNotifications.hasListeners) || merges {
                CommitBus.publish(change(), instance: instance, announce: !suppressed, schema: schema, store: ObjectIdentifier(adapter))
            } else {
                TableObservers.notify(store: ObjectIdentifier(adapter), schemas: [schema])
            }
            return
        }
        let top = context.levels.count - 1
        if context.levels[top].schemas.last !== schema { context.levels[top].schemas.append(schema) }
        if !suppressed || merges { context.levels[top].changes.append((change(), instance, !suppressed)) }
        if let (record, before) = undo { context.levels[top].undo.append(RecordUndo(record, before: before)) }
    }

    /// Runs `body` as one transaction level of `adapter`.
    static func run<R>(on adapter: any PersistenceAdapter, _ body: () throws -> R) throws -> R {
        let key = ObjectIdentifier(adapter)
        let stack = stacks.value ?? Stack()
        stacks.value = stack
        let context: TransactionContext
        if let existing = current(for: key) {
            context = existing
        } else {
            context = TransactionContext(adapter: key)
            stack.contexts.append(context)
        }
        context.levels.append(Level())
        func finish() -> Level {
            let level = context.levels.removeLast()
            if context.levels.isEmpty { stack.contexts.removeAll { $0 === context } }
            return level
        }
        let result: R
        do {
            result = try adapter.withTransaction(body)
        } catch {
            let level = finish()
            for undo in level.undo.reversed() { undo.restore() }
            throw error
        }
        let level = finish()
        if context.levels.isEmpty {
            // Read in place: copying each entry out costs a retain and release per value.
            level.changes.withUnsafeBufferPointer { CommitBus.publish($0, schemas: level.schemas, store: key) }
        } else {
            context.levels[context.levels.count - 1].changes += level.changes
            context.levels[context.levels.count - 1].undo += level.undo
            context.levels[context.levels.count - 1].schemas += level.schemas
        }
        return result
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
}
