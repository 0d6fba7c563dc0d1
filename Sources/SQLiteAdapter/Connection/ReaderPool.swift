import Dispatch

/// A fixed set of read-only connections, each lent to one thread at a time.
final class ReaderPool: Sendable {
    private let free: Locked<(connections: [SQLiteConnection], closed: Bool)>
    private let available: DispatchSemaphore
    private let size: Int

    init(_ connections: [SQLiteConnection]) {
        free = Locked((connections, false))
        available = DispatchSemaphore(value: connections.count)
        size = connections.count
    }

    /// Runs `body` with a reader, waiting while all are lent out.
    ///
    /// - Throws: `closed()` once the pool is closed.
    func withReader<R>(closed: () -> any Error, _ body: (SQLiteConnection) throws -> R) throws -> R {
        available.wait()
        guard let reader = free.withLock({ $0.closed ? nil : $0.connections.popLast() }) else {
            available.signal()
            throw closed()
        }
        defer {
            free.withLock { $0.connections.append(reader) }
            available.signal()
        }
        return try body(reader)
    }

    /// Waits until every reader is returned, then closes them all; later requests throw.
    func close() {
        for _ in 0..<size { available.wait() }
        free.withLock { pool in
            for connection in pool.connections { connection.close() }
            pool.closed = true
        }
        for _ in 0..<size { available.signal() }
    }
}
