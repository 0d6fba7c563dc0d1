import Foundation
import SwiftModelCSQLite

/// An open ``SQLiteAdapter/read(_:)`` block, bound to the task (or thread) that opened it
/// for the block's duration, and inherited by the tasks it starts.
///
/// `@unchecked Sendable`: `connection` is only used holding `lock` (tasks of the block
/// may read at once); `owner` is immutable.
final class ReadSnapshot: @unchecked Sendable {
    /// The innermost open block of the current task or thread.
    @TaskLocal static var current: ReadSnapshot?
    /// The adapter whose block this is (a task may read two stores at once).
    unowned let owner: SQLiteAdapter
    /// The connection every read of the block runs on.
    let connection: SQLiteConnection
    /// Serialises the block's reads on its connection.
    let lock = RecursiveLock()

    init(owner: SQLiteAdapter, connection: SQLiteConnection) {
        self.owner = owner
        self.connection = connection
    }
}

extension SQLiteAdapter {
    /// Runs `body` in a read-only transaction: every read inside it (finders, queries,
    /// aggregates, `rows`) sees one consistent snapshot of the database, and none of them
    /// takes the write lock, so writers on other threads (and other processes) go on.
    ///
    /// ```swift
    /// let (open, total) = try store.read {
    ///     (try Chore.where(\.done == false).count(), try Chore.count())   // one snapshot
    /// }
    /// ```
    ///
    /// With WAL and readers (the default for files) the block runs on one reader
    /// connection in a deferred `BEGIN`; otherwise on the writer (other threads' writes then
    /// wait until the block ends). Inside an open ``withTransaction(_:)`` it just runs
    /// `body`, which already sees one state; nested `read` blocks join the outer one.
    ///
    /// The snapshot starts at the block's first read. A table that the block is the first
    /// to use is created before that read; tables first used later in a block that has
    /// already read are created after its snapshot began — `prepare(_:)` them beforehand.
    ///
    /// - Throws: what `body` throws (the read transaction ends either way), and
    ///   ``StoreError`` `.invalidRequest` for a write or a `transaction { }` inside the
    ///   block, or after ``close()``.
    public func read<R>(_ body: () throws -> R) throws -> R {
        if writerLock.isOwnedHere { return try body() }
        if let snapshot = ReadSnapshot.current, snapshot.owner === self { return try body() }
        if let readers {
            return try readers.withReader(closed: closedError) { try snapshot(on: $0, body) }
        }
        writerLock.lock()
        defer { writerLock.unlock() }
        guard !writer.isClosed else { throw closedError() }
        return try snapshot(on: writer, body)
    }

    private func snapshot<R>(on connection: SQLiteConnection, _ body: () throws -> R) throws -> R {
        try connection.execute("BEGIN DEFERRED")
        openReadBlocks.add(1, ordering: .relaxed)
        defer { openReadBlocks.subtract(1, ordering: .relaxed) }
        let result: R
        do {
            result = try ReadSnapshot.$current.withValue(ReadSnapshot(owner: self, connection: connection), operation: body)
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
        try connection.execute("COMMIT")
        return result
    }

    /// Whether the caller is inside a ``read(_:)`` block of this adapter.
    var isReadingSnapshot: Bool {
        openReadBlocks.load(ordering: .relaxed) > 0 && ReadSnapshot.current?.owner === self
    }

    /// Closes the database: waits for reads in progress on the reader connections,
    /// finalizes every cached statement and closes every connection, so the file can be
    /// moved, deleted or opened exclusively by another program. Idempotent.
    ///
    /// Every later call on the adapter throws ``StoreError`` `.closed`; records
    /// loaded from it keep their values but cannot save to it. Releasing the adapter closes
    /// it too; call `close()` when the moment matters.
    ///
    /// - Throws: ``StoreError`` `.invalidRequest` when called inside a transaction or a
    ///   ``read(_:)`` block (nothing is closed).
    public func close() throws {
        if isReadingSnapshot {
            throw StoreError(.invalidRequest, table: "", message: "close() inside read { }")
        }
        writerLock.lock()
        defer { writerLock.unlock() }
        guard levels.depth == 0 else {
            throw StoreError(.invalidRequest, table: "", message: "close() inside a transaction")
        }
        guard !writer.isClosed else { return }
        readers?.close()
        writer.close()
    }

    /// Whether ``close()`` has run.
    public var isClosed: Bool {
        writerLock.lock()
        defer { writerLock.unlock() }
        return writer.isClosed
    }
}
