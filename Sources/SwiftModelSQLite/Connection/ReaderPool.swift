import Dispatch
import Synchronization

/// A fixed set of read-only connections, each lent to one thread at a time.
///
/// The semaphore counts the readers not lent out. A caller it lets through claims a reader
/// by flipping that reader's flag with a compare-exchange, and returns it by clearing the
/// flag: lending and returning take no lock. (Every caller let through has a reader
/// waiting for it — at most as many are through as there are readers — so the claim
/// always finds one; it only retries when another claim takes the same reader first.) The
/// flag's release/acquire pair orders one borrower's use of a connection before the
/// next one's.
final class ReaderPool: Sendable {
    /// One reader and whether it is lent out.
    private final class Slot: Sendable {
        let connection: SQLiteConnection
        let isLent = Atomic<Bool>(false)

        init(_ connection: SQLiteConnection) { self.connection = connection }
    }

    private let slots: [Slot]
    private let isClosed = Atomic<Bool>(false)
    private let available: DispatchSemaphore

    init(_ connections: [SQLiteConnection]) {
        slots = connections.map(Slot.init)
        available = DispatchSemaphore(value: connections.count)
    }

    /// Runs `body` with a reader, waiting while all are lent out.
    ///
    /// - Throws: `closed()` once the pool is closed.
    func withReader<R>(closed: () -> any Error, _ body: (SQLiteConnection) throws -> R) throws -> R {
        available.wait()
        guard !isClosed.load(ordering: .acquiring) else {
            available.signal()
            throw closed()
        }
        let k = claim()
        defer {
            slots[k].isLent.store(false, ordering: .releasing)
            available.signal()
        }
        return try body(slots[k].connection)
    }

    /// Where a reader not lent out is in `slots`, now lent to the caller (whom the semaphore
    /// let through). A position, not the slot: `slots` keeps the slots alive, and handing one
    /// out cost a retain and a release on every read.
    private func claim() -> Int {
        while true {
            for k in slots.indices where !slots[k].isLent.load(ordering: .relaxed) {
                if slots[k].isLent.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
                    return k
                }
            }
        }
    }

    /// Waits until every reader is returned, then closes them all; later requests throw.
    func close() {
        for _ in slots { available.wait() }
        if !isClosed.exchange(true, ordering: .acquiringAndReleasing) {
            for slot in slots { slot.connection.close() }
        }
        for _ in slots { available.signal() }
    }
}
