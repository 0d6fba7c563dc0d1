import Foundation
import Synchronization

/// Sends reads outside transactions to read replicas, round robin, and keeps
/// read-your-writes: after a write it remembers the primary's WAL position
/// (`pg_current_wal_lsn()`), and a replica serves this adapter's reads only once it has
/// replayed up to there (`pg_last_wal_replay_lsn()`); until then reads go to the primary.
/// A replica that fails is skipped for a few seconds, its reads going to the primary.
final class ReplicaRouter: Sendable {
    let replicas: [ConnectionPool]
    let readYourWrites: Bool
    /// The WAL position of this adapter's last write (0 before any).
    private let lastWrite = Atomic<UInt64>(0)
    /// Per replica: the replay position it was last seen at, and until when it is skipped.
    private let seen: Locked<[UInt64]>
    private let downUntil: Locked<[ContinuousClock.Instant?]>
    private let next = Atomic<Int>(0)

    init(replicas: [ConnectionPool], readYourWrites: Bool) {
        self.replicas = replicas
        self.readYourWrites = readYourWrites
        seen = Locked(replicas.map { _ in 0 })
        downUntil = Locked(replicas.map { _ in nil })
    }

    /// Records the WAL position after a write on `connection` (only with replicas and
    /// read-your-writes on: one extra round trip per write).
    func wrote(on connection: PGConnection) {
        guard !replicas.isEmpty, readYourWrites,
            let text = try? connection.execute("SELECT pg_current_wal_lsn()::text").textValues().first,
            let lsn = Self.lsn(text)
        else { return }
        var current = lastWrite.load(ordering: .relaxed)
        while current < lsn {
            let (exchanged, original) = lastWrite.compareExchange(expected: current, desired: lsn, ordering: .relaxed)
            if exchanged { break }
            current = original
        }
    }

    /// Runs a read on a replica that is up to date for read-your-writes, or the primary.
    func read<R>(primary: ConnectionPool, _ body: (PGConnection) throws -> R) throws -> R {
        guard !replicas.isEmpty else { return try primary.with(body) }
        let required = readYourWrites ? lastWrite.load(ordering: .relaxed) : 0
        let start = Int(UInt(bitPattern: next.add(1, ordering: .relaxed).newValue) % UInt(replicas.count))
        for offset in 0..<replicas.count {
            let k = (start + offset) % replicas.count
            if let until = downUntil.withLock({ $0[k] }), until > .now { continue }
            let pool = replicas[k]
            do {
                let connection = try pool.acquire()
                defer { pool.release(connection) }
                if seen.withLock({ $0[k] }) < required {
                    guard let text = try connection.execute("SELECT pg_last_wal_replay_lsn()::text").textValues().first,
                        let replayed = Self.lsn(text)
                    else { continue }
                    seen.withLock { $0[k] = max($0[k], replayed) }
                    if replayed < required { continue }
                }
                return try body(connection)
            } catch let error as PostgresError where error.kind == .connection || error.kind == .poolTimeout {
                downUntil.withLock { $0[k] = .now + .seconds(5) }
            }
        }
        return try primary.with(body)
    }

    func close() {
        for pool in replicas { pool.close() }
    }

    /// A WAL position (`16/B374D848`) as a number.
    static func lsn(_ text: String) -> UInt64? {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let high = UInt64(parts[0], radix: 16), let low = UInt64(parts[1], radix: 16) else { return nil }
        return high << 32 | low
    }
}
