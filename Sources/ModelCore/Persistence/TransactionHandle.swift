import Foundation
import Synchronization

/// One open transaction on one store: the value a transaction's body receives, and the key
/// under which the store keeps the transaction's connection or writer.
///
/// The body reaches its transaction through the handle — or, for helpers it calls, through
/// the task-local the handle is bound to while the body runs (``isActive``) — never through
/// the identity of the thread it runs on. So a synchronous body and an async body work the
/// same way, an async body may move between threads, and record writes from any isolation
/// inside the body's task (an `await` into a `@MainActor` function, a child task) join the
/// transaction.
///
/// ```swift
/// try store.transaction { tx in
///     try from.save()
///     try tx.savepoint { try to.save() }   // a nested level: throwing undoes only it
/// }
/// ```
///
/// A handle is open from the first line of the body until the outermost level commits or
/// rolls back; a task the body started that outlives it finds the handle closed and runs
/// outside the transaction.
///
/// `@unchecked Sendable`: `levels` is only touched while holding `lock`; `open` is atomic;
/// the rest is immutable.
public final class TransactionHandle: @unchecked Sendable {
    /// What happened at one level of the transaction: changes to announce at commit, and
    /// record states to restore on rollback.
    package struct Level {
        /// The level's number, unique in the process and never 0: how a record names the
        /// innermost level holding an undo for it (``ModelObject/__undoLevel``).
        let serial: UInt64
        /// Changes to hand on at commit, each kept only if something took changes when it
        /// was made (see ``TransactionContext/record(_:schema:instance:adapter:undo:)``).
        var changes: [PendingChange] = []
        /// Records written at this level, each with how to restore its state before the
        /// level (see ``RecordUndo``). The level does not keep a record alive for long once
        /// nothing else does (see ``UndoLog``).
        var log = UndoLog()
        /// The schemas written at this level (for ``TableObservers``), repeats mostly
        /// skipped.
        var schemas: [ModelSchema] = []
    }

    /// The last level number handed out (see ``Level/serial``).
    private static let serials = Atomic<UInt64>(0)

    /// The store the transaction runs on.
    public let store: any PersistenceAdapter
    /// The store's identity.
    package let key: ObjectIdentifier
    /// The transaction this one was opened inside (on another store), if any.
    package let outer: TransactionHandle?
    /// The async transaction running the body, when it is async (weak: it owns the handle).
    /// Set once, before the handle is shared: no access of it overlaps a write, so it needs
    /// no dynamic exclusivity check. (With `levels` below and `SQLTransactionLevels`:
    /// without the three, `Scripts/instructions.py --adapter sqlite --n 5000` counts
    /// insert +1.3 %, update all +2.3 %, delete half +2.7 %.)
    @exclusivity(unchecked) package private(set) weak var scope: AsyncTransaction?
    private let lock = RecursiveLock()
    /// Only touched holding `lock`, which is what keeps accesses apart (so unchecked; see
    /// `scope` for the benchmark).
    @exclusivity(unchecked) private var levels: [Level] = []
    private let open = Atomic<Bool>(true)

    /// How many handles in the process are open (made and not yet closed or released).
    private static let openHandles = Atomic<Int>(0)

    /// Whether any handle in the process is open. When none is, no task or thread is inside
    /// a transaction, and a write need not read the task-local ``innermost`` (about 130
    /// instructions a save outside transactions). A handle counts from before it can be
    /// bound, and a task sees its own handle's count (or its parent's, from before the task
    /// started), so a relaxed load never misses the caller's own open transaction.
    @inline(__always) package static var anyOpen: Bool { openHandles.load(ordering: .relaxed) > 0 }

    /// ``innermost``, read only while ``anyOpen``: how lookups of the caller's transaction
    /// start, so one outside every transaction costs an atomic load.
    @inline(__always) package static var openInnermost: TransactionHandle? { anyOpen ? innermost : nil }

    package init(store: any PersistenceAdapter, outer: TransactionHandle?, scope: AsyncTransaction? = nil) {
        self.store = store
        key = ObjectIdentifier(store)
        self.outer = outer
        self.scope = scope
        Self.openHandles.add(1, ordering: .relaxed)
    }

    deinit { end() }

    /// The innermost open transaction of the current task (or thread, outside tasks).
    @TaskLocal package static var innermost: TransactionHandle?

    /// Whether the transaction has not ended yet.
    public var isOpen: Bool { open.load(ordering: .acquiring) }

    /// Whether the handle is bound to the current task or thread and still open: the code
    /// running now is inside this transaction.
    public var isActive: Bool {
        var handle = Self.openInnermost
        while let current = handle {
            if current === self { return isOpen }
            handle = current.outer
        }
        return false
    }

    /// The handle's address, for lock-free ownership checks (never 0).
    package var bits: UInt { UInt(bitPattern: ObjectIdentifier(self).hashValue) }

    /// Whether the handle at `bits` is bound to the current task or thread and open.
    /// Sound without a lock: a handle in the caller's chain is alive, so an equal address
    /// is that handle.
    package static func isActive(identifiedBy bits: UInt) -> Bool {
        var handle = openInnermost
        while let current = handle {
            if current.bits == bits { return current.isOpen }
            handle = current.outer
        }
        return false
    }

    /// The first non-nil `lookup` of the open handles the caller is inside, innermost
    /// first, by ``bits``.
    package static func firstActive<T>(_ lookup: (UInt) -> T?) -> T? {
        var handle = openInnermost
        while let current = handle {
            if current.isOpen, let found = lookup(current.bits) { return found }
            handle = current.outer
        }
        return nil
    }

    /// The open transaction on `store` the current task is inside, if any.
    @inline(__always) package static func current(for store: ObjectIdentifier) -> TransactionHandle? {
        current(for: store, from: openInnermost)
    }

    /// ``current(for:)`` searching outward from `innermost`, already read by the caller
    /// (each read of the task-local costs about a hundred instructions).
    @inline(__always) package static func current(for store: ObjectIdentifier, from innermost: TransactionHandle?) -> TransactionHandle? {
        var handle = innermost
        while let current = handle {
            if current.key == store, current.isOpen { return current }
            handle = current.outer
        }
        return nil
    }

    /// Runs `body` with the caller's open transaction on `store`, or, when there is none (an
    /// adapter's `withTransaction` called directly), with a new handle bound for its
    /// duration: the handle an adapter keys its side of the transaction by.
    package static func withCurrent<R>(for store: any PersistenceAdapter, _ body: (TransactionHandle) throws -> R) rethrows -> R {
        if let handle = current(for: ObjectIdentifier(store)) { return try body(handle) }
        let handle = TransactionHandle(store: store, outer: innermost)
        defer { handle.close() }
        return try $innermost.withValue(handle) { try body(handle) }
    }

    /// Runs a nested level of this transaction (a savepoint): throwing undoes exactly the
    /// level's writes and record states, and rethrows.
    ///
    /// - Throws: ``StoreError`` `.invalidRequest` when the transaction has ended.
    @discardableResult
    public func savepoint<R>(_ body: () throws -> R) throws -> R {
        guard isOpen else {
            throw StoreError(.invalidRequest, table: "", message: "savepoint on a transaction that has ended")
        }
        return try Self.$innermost.withValue(self) { try TransactionContext.run(on: store, body) }
    }

    /// Ties the handle to the async transaction running its body.
    func attach(_ scope: AsyncTransaction) { self.scope = scope }

    // MARK: Levels

    var depth: Int { lock.withLock { levels.count } }

    func pushLevel() {
        let serial = Self.serials.add(1, ordering: .relaxed).newValue
        lock.withLock { levels.append(Level(serial: serial)) }
    }

    func popLevel() -> Level { lock.withLock { levels.removeLast() } }

    /// Ends the handle: later lookups skip it.
    package func close() { end() }

    /// Marks the handle closed, counting it out of ``openHandles`` once (a handle is closed
    /// both by its level and by the code that opened it, and a released one counts out too).
    private func end() {
        if open.exchange(false, ordering: .acquiringAndReleasing) { Self.openHandles.subtract(1, ordering: .relaxed) }
    }

    /// Merges a committed nested level into the one around it.
    func merge(_ level: consuming Level) {
        // Records and undo the outer level already had, dropped after unlocking: a record
        // may end then.
        var dropped: [UndoLog.Item] = []
        lock.withLock {
            let outer = levels.count - 1
            levels[outer].changes += level.changes
            dropped = levels[outer].log.absorb(level.log, level: level.serial, into: levels[outer].serial)
            levels[outer].schemas += level.schemas
        }
        withExtendedLifetime(dropped) {}
    }

    /// How many undo entries the open levels hold for `record` (one per level that wrote
    /// it, but see ``ModelObject/__undoLevel``).
    package func undoCount(of record: ModelObject) -> Int {
        lock.withLock { levels.reduce(0) { $0 + $1.log.entryCount(for: record) } }
    }

    /// Adds a write to the innermost level; false when no level is open (a bare adapter
    /// transaction, which the model layer does not track).
    /// `undo` is the record written and its state before the write: the level keeps it
    /// unless it already holds an earlier state of the record.
    func note(
        _ change: () -> ModelChange, schema: ModelSchema, instance: AnyObject?, announce: Bool, keepsChange: Bool,
        undoing record: ModelObject?, _ undo: (_ isolation: (any Actor)?) -> RecordUndo?
    ) -> Bool {
        let isolation = record == nil ? nil : foreignIsolation()
        // Records and undo the log let go, dropped after unlocking: a record may end then.
        var released = UndoLog.Released()
        let noted = lock.withLock {
            guard !levels.isEmpty else { return false }
            let top = levels.count - 1
            if levels[top].schemas.last !== schema { levels[top].schemas.append(schema) }
            if keepsChange {
                levels[top].changes.append(
                    PendingChange(change(), instance: instance, announce: announce, lastSubscriber: ModelNotifications.lastSubscriber))
            }
            if let record {
                // The earliest state in a level is the one its rollback restores.
                let serial = levels[top].serial
                let outer = record.__undoLevel.load(ordering: .relaxed)
                guard outer != serial, let made = undo(isolation) else { return true }
                record.__undoLevel.store(serial, ordering: .relaxed)
                levels[top].log.append(record, weakly: isolation != nil, undo: consume made, outer: outer, releasing: &released)
            }
            return true
        }
        withExtendedLifetime(released) {}
        return noted
    }

    /// The isolation a rollback must restore a record written now in, when that is not
    /// the one ending the transaction: nil inside a synchronous transaction and on an async
    /// transaction's own executor; else the isolation an async write declared
    /// (``WriteIsolation``), or the main actor on the main thread.
    func foreignIsolation() -> (any Actor)? {
        guard let scope, !scope.isRunningHere else { return nil }
        if let declared = WriteIsolation.current { return declared }
        return Thread.isMainThread ? MainActor.shared : nil
    }
}

/// The isolation an async record write runs in, declared by the async write drivers while
/// they record the write, so a rollback can restore the record there.
package enum WriteIsolation {
    @TaskLocal package static var current: (any Actor)?

    /// Runs `body` (which records a write) with `isolation` declared, when the caller is
    /// inside a transaction at all.
    @inline(__always) package static func declaring<R>(_ isolation: (any Actor)?, _ body: () throws -> R) rethrows -> R {
        guard let isolation, TransactionHandle.openInnermost != nil else { return try body() }
        return try $current.withValue(isolation, operation: body)
    }
}
