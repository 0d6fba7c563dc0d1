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
        guard tracksWrites else { return }
        note(write: try? connection.execute(Self.writePositionSQL).textValues().first)
    }

    /// ``wrote(on:)`` without blocking.
    func wrote(on connection: PGConnection, loop: PGEventLoop) async {
        guard tracksWrites else { return }
        note(write: try? await connection.execute(Self.writePositionSQL, on: loop).textValues().first)
    }

    private var tracksWrites: Bool { !replicas.isEmpty && readYourWrites }
    private static let writePositionSQL = "SELECT pg_current_wal_lsn()::text"
    private static let replayPositionSQL = "SELECT pg_last_wal_replay_lsn()::text"

    private func note(write text: String?) {
        guard let text, let lsn = Self.lsn(text) else { return }
        var current = lastWrite.load(ordering: .relaxed)
        while current < lsn {
            let (exchanged, original) = lastWrite.compareExchange(expected: current, desired: lsn, ordering: .relaxed)
            if exchanged { break }
            current = original
        }
    }

    /// Runs a read on a replica that is up to date for read-your-writes, or the primary.
    func read<R>(primary: ConnectionPool, _ body: (PGConnection) throws -> R) throws -> R {
        for k in candidates() {
            let pool = replicas[k]
            do {
                let connection = try pool.acquire()
                defer { pool.release(connection) }
                if let required = replayRequired(k) {
                    guard replayed(k, try connection.execute(Self.replayPositionSQL).textValues().first, required) else { continue }
                }
                return try body(connection)
            } catch let error as PostgresError where error.kind == .connection || error.kind == .poolTimeout {
                markDown(k)
            }
        }
        return try primary.with(body)
    }

    /// ``read(primary:_:)`` without blocking.
    func read<R>(primary: ConnectionPool, loop: PGEventLoop, _ body: (PGConnection) async throws -> R) async throws -> R {
        for k in candidates() {
            let pool = replicas[k]
            do {
                let result = try await pool.with(on: loop) { connection -> R? in
                    if let required = replayRequired(k) {
                        let text = try await connection.execute(Self.replayPositionSQL, on: loop).textValues().first
                        guard replayed(k, text, required) else { return nil }
                    }
                    return .some(try await body(connection))
                }
                if let result { return result }
            } catch let error as PostgresError where error.kind == .connection || error.kind == .poolTimeout {
                markDown(k)
            }
        }
        return try await primary.with(on: loop, body)
    }

    /// The replicas to try for a read, round robin from the next one, skipping those down.
    private func candidates() -> [Int] {
        guard !replicas.isEmpty else { return [] }
        let start = Int(UInt(bitPattern: next.add(1, ordering: .relaxed).newValue) % UInt(replicas.count))
        return (0..<replicas.count).map { (start + $0) % replicas.count }.filter { k in
            guard let until = downUntil.withLock({ $0[k] }) else { return true }
            return until <= .now
        }
    }

    /// The WAL position replica `k` must have replayed before serving this adapter's reads,
    /// when it was not yet seen there (nil: no check needed).
    private func replayRequired(_ k: Int) -> UInt64? {
        let required = readYourWrites ? lastWrite.load(ordering: .relaxed) : 0
        return seen.withLock { $0[k] } < required ? required : nil
    }

    /// Records the replay position `text` replica `k` reported; whether it reaches `required`.
    private func replayed(_ k: Int, _ text: String?, _ required: UInt64) -> Bool {
        guard let text, let position = Self.lsn(text) else { return false }
        seen.withLock { $0[k] = max($0[k], position) }
        return position >= required
    }

    private func markDown(_ k: Int) { downUntil.withLock { $0[k] = .now + .seconds(5) } }

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
