import Dispatch

/// A fixed set of read-only connections, each lent to one thread at a time.
final class ReaderPool: Sendable {
    private let free: Locked<[SQLiteConnection]>
    private let available: DispatchSemaphore

    init(_ connections: [SQLiteConnection]) {
        free = Locked(connections)
        available = DispatchSemaphore(value: connections.count)
    }

    /// Runs `body` with a reader, waiting while all are lent out.
    func withReader<R>(_ body: (SQLiteConnection) throws -> R) throws -> R {
        available.wait()
        let reader = free.withLock { $0.removeLast() }
        defer {
            free.withLock { $0.append(reader) }
            available.signal()
        }
        return try body(reader)
    }
}
