import Foundation
import ModelSQL

/// Publishes the tables this adapter's writes change on the `swiftmodel_changes` channel,
/// so other processes' observers refresh.
///
/// Inside a transaction the `NOTIFY` travels with the `COMMIT` (PostgreSQL delivers it
/// only if the transaction commits). A write outside a transaction only marks its table;
/// a background thread sends one `NOTIFY` per batch of marked tables on a pooled
/// connection moments later, so single writes pay no extra round trip. Publishing is best
/// effort: if the server is unreachable the batch is dropped (observers elsewhere refresh
/// on the next change).
///
/// A payload is `<adapter token> <schema>.<table>\t<schema>.<table>…`, at most 7,900
/// bytes: tables are qualified by the adapter's schema, so adapters on other schemas of the
/// same database (tenants) take no notice of each other's commits.
final class ChangePublisher: Sendable {
    static let channel = "swiftmodel_changes"
    private static let payloadLimit = 7_900

    private let pool: ConnectionPool
    let token: String
    /// The schema that qualifies every table named (``PostgresAdapter/namespace``).
    let namespace: String
    private struct State {
        var pending: Set<String> = []
        var stopped = false
        var running = false
    }
    private let state = Locked(State())
    private let condition = NSCondition()

    init(pool: ConnectionPool, token: String, namespace: String) {
        self.pool = pool
        self.token = token
        self.namespace = namespace
    }

    /// Marks tables as changed by a committed write; sent shortly.
    func publish(_ tables: [String]) {
        guard !tables.isEmpty else { return }
        let start = state.withLock { s -> Bool in
            guard !s.stopped else { return false }
            s.pending.formUnion(tables)
            defer { s.running = true }
            return !s.running
        }
        if start {
            let thread = Thread { [self] in run() }
            thread.name = "SwiftModel NOTIFY"
            thread.start()
        } else {
            condition.lock()
            condition.signal()
            condition.unlock()
        }
    }

    /// The payloads announcing `tables` (split to stay under PostgreSQL's 8,000 bytes).
    func payloads(_ tables: [String]) -> [String] {
        var payloads: [String] = []
        var current = token + " "
        for table in tables {
            let qualified = namespace + "." + table
            let piece = (current.hasSuffix(" ") ? "" : "\t") + qualified
            if current.utf8.count + piece.utf8.count > Self.payloadLimit, !current.hasSuffix(" ") {
                payloads.append(current)
                current = token + " " + qualified
            } else {
                current += piece
            }
        }
        if !current.hasSuffix(" ") { payloads.append(current) }
        return payloads
    }

    private func run() {
        while true {
            condition.lock()
            var batch: Set<String> = []
            var stopped = false
            while true {
                (batch, stopped) = state.withLock { s in
                    defer { s.pending = [] }
                    return (s.pending, s.stopped)
                }
                if stopped || !batch.isEmpty { break }
                condition.wait()
            }
            condition.unlock()
            if stopped { return }
            let sql = payloads(batch.sorted()).compactMap { payload in
                SQLText.string(payload).map { "NOTIFY \(Self.channel), \($0)" }
            }.joined(separator: "; ")
            _ = try? pool.with { connection in try connection.execute(sql) }
        }
    }

    func stop() {
        state.withLock { $0.stopped = true }
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }
}
