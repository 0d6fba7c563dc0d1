import CLibPQRaw
import Foundation
import PostgresAdapter
import Synchronization

/// `--postgres-concurrent N`: the server-shaped workloads — 64 tasks sharing a pool of 8
/// connections, doing N lookups by id, then N/2 single-row inserts (each its own implicit
/// transaction) — through PostgresAdapter's async API, beside raw libpq on 8 OS threads
/// (one connection each, blocking calls, the same shared counter): the
/// thread-per-connection limit for the same connections. Throughput per wall-clock second
/// and per-call latency (p50, p99, call to return: waits for a connection included).
///
/// `--postgres-latency N`: the same through a ``LatencyRelay`` adding 0.5 ms each way (1 ms
/// of round trip; `--delay-ms D` before it sets another delay) with pools of 16, beside the
/// bound such a link allows: connections ÷ the round trip of one raw `SELECT 1` through the
/// relay.
enum PostgresConcurrency {
    static let tasks = 64

    static func run(_ n: Int, runs: Int) throws {
        try runAsync { try await measure(n, runs: runs, connections: 8, delay: nil) }
    }

    static func runWithLatency(_ n: Int, runs: Int, delay: Duration) throws {
        try runAsync { try await measure(n, runs: runs, connections: 16, delay: delay) }
    }

    static func measure(_ n: Int, runs: Int, connections: Int, delay: Duration?) async throws {
        guard let direct = ProcessInfo.processInfo.environment["SWIFTMODEL_POSTGRES_URL"] else {
            throw BenchmarkError("--postgres-concurrent needs SWIFTMODEL_POSTGRES_URL (Scripts/postgres-cluster.sh run -- …)")
        }
        var url = direct
        var relay: LatencyRelay?
        defer { relay?.stop() }
        if let delay {
            guard let range = direct.range(of: #"port=\d+"#, options: .regularExpression), let port = Int(direct[range].dropFirst(5))
            else { throw BenchmarkError("--postgres-latency needs port=… in SWIFTMODEL_POSTGRES_URL") }
            relay = try LatencyRelay(targetPort: port, delay: delay)
            url = direct.replacingCharacters(in: range, with: "port=\(relay?.port ?? port)")
            let rtt = try roundTrip(url)
            print(
                String(
                    format: "PostgreSQL through a relay adding %.2f ms each way: round trip %.2f ms; bound with %d connections %.0f calls/s",
                    PostgresWorkloads.seconds(delay) * 1000, rtt * 1000, connections, Double(connections) / rtt))
        }
        print("PostgreSQL concurrent, \(tasks) tasks, \(connections) connections, median of \(runs) (async API vs raw libpq on \(connections) threads)")
        for workload in ["lookups", "inserts"] {
            var model: [Result] = []
            var raw: [Result] = []
            for _ in 0..<max(1, runs) {
                let count = workload == "lookups" ? n : max(1, n / 2)
                let (store, rawSeed, table) = try PostgresWorkloads.fresh(direct, seed: workload == "lookups" ? n : 0)
                let search = "SET search_path TO \"\(store.configuration.schema ?? "public")\""
                raw.append(try rawRun(workload, url, search, table, count, n, connections))
                try rawSeed.exec(workload == "lookups" ? "SELECT 1" : "TRUNCATE \(table) RESTART IDENTITY")
                model.append(try await modelRun(workload, url, store.configuration.schema, count, n, connections))
                try? store.close()
            }
            let m = model.sorted { $0.perSecond < $1.perSecond }[model.count / 2]
            let r = raw.sorted { $0.perSecond < $1.perSecond }[raw.count / 2]
            print(
                "  " + workload.padding(toLength: 10, withPad: " ", startingAt: 0)
                    + String(
                        format: "raw %8.0f/s (p50 %.2f ms, p99 %.2f ms)   PostgresAdapter %8.0f/s (p50 %.2f ms, p99 %.2f ms)   ratio %.2f",
                        r.perSecond, r.p50, r.p99, m.perSecond, m.p50, m.p99, m.perSecond / r.perSecond))
        }
    }

    struct Result {
        let perSecond: Double
        let p50: Double
        let p99: Double

        init(count: Int, seconds: Double, latencies: [Double]) {
            perSecond = Double(count) / seconds
            let sorted = latencies.sorted()
            p50 = sorted.isEmpty ? 0 : sorted[sorted.count / 2] * 1000
            p99 = sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, sorted.count * 99 / 100)] * 1000
        }
    }

    /// Runs a relay adding `delay` each way to the server for `seconds`, printing the
    /// connection string through it (for a client in another process).
    static func relayOnly(seconds: Int, delay: Duration) throws {
        guard let direct = ProcessInfo.processInfo.environment["SWIFTMODEL_POSTGRES_URL"],
            let range = direct.range(of: #"port=\d+"#, options: .regularExpression), let port = Int(direct[range].dropFirst(5))
        else { throw BenchmarkError("--relay needs SWIFTMODEL_POSTGRES_URL with port=…") }
        let relay = try LatencyRelay(targetPort: port, delay: delay)
        FileHandle.standardOutput.write(Data((direct.replacingCharacters(in: range, with: "port=\(relay.port)") + "\n").utf8))
        Thread.sleep(forTimeInterval: Double(seconds))
        relay.stop()
    }

    /// The median time of one raw `SELECT 1` on one connection to `url`.
    static func roundTrip(_ url: String) throws -> Double {
        let raw = try RawPostgres(url)
        try raw.prepare("one", "SELECT 1")
        var times: [Double] = []
        for _ in 0..<200 {
            let began = ContinuousClock.now
            PQclear(try raw.query("one", []))
            times.append(PostgresWorkloads.seconds(ContinuousClock.now - began))
        }
        return times.sorted()[times.count / 2]
    }

    static func modelRun(
        _ workload: String, _ url: String, _ schema: String?, _ count: Int, _ n: Int, _ connections: Int
    ) async throws -> Result {
        var configuration = PostgresConfiguration(url)
        configuration.schema = schema
        configuration.maximumConnections = connections
        configuration.listensForChanges = false
        let store = try PostgresAdapter(configuration)
        defer { try? store.close() }
        _ = try await Person.find(1, in: store)  // prepares the table
        let shared = Shared()
        let ids = Fixture.lookupIDs(count, n: max(1, n))
        let start = ContinuousClock.now
        let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
            for _ in 0..<tasks {
                group.addTask {
                    var mine: [Double] = []
                    while true {
                        let k = shared.next()
                        guard k < count else { return mine }
                        let began = ContinuousClock.now
                        if workload == "lookups" {
                            blackHole(try await Person.find(ids[k], in: store)?.age ?? 0)
                        } else {
                            let p = Person()
                            Fixture.fill(p, k)
                            try await p.save(to: store)
                        }
                        mine.append(PostgresWorkloads.seconds(ContinuousClock.now - began))
                    }
                }
            }
            var all: [Double] = []
            for try await part in group { all += part }
            return all
        }
        return Result(count: count, seconds: PostgresWorkloads.seconds(ContinuousClock.now - start), latencies: latencies)
    }

    static func rawRun(
        _ workload: String, _ url: String, _ search: String, _ table: String, _ count: Int, _ n: Int, _ connections: Int
    ) throws -> Result {
        let raws = try (0..<connections).map { _ in try RawPostgres(url) }
        for raw in raws {
            try raw.exec(search)
            try raw.prepare("find", "SELECT id, \(PostgresWorkloads.columns) FROM \(table) WHERE id = $1")
            try raw.prepare(
                "ins", "INSERT INTO \(table) (\(PostgresWorkloads.columns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id")
        }
        let shared = Shared()
        let ids = Fixture.lookupIDs(count, n: max(1, n))
        let group = DispatchGroup()
        let start = ContinuousClock.now
        for raw in raws {
            group.enter()
            let raw = UncheckedBox(raw)
            Thread {
                var mine: [Double] = []
                while true {
                    let k = shared.next()
                    guard k < count else { break }
                    let began = ContinuousClock.now
                    do {
                        let result =
                            workload == "lookups"
                            ? try raw.value.query("find", [RawPostgres.int8(ids[k])])
                            : try raw.value.query("ins", RawPostgres.params(Fixture.row(k)))
                        if PQntuples(result) > 0 { blackHole(RawPostgres.int8(result, 0, 0)) }
                        PQclear(result)
                    } catch {
                        shared.failures.withLock { $0.append("\(error)") }
                        break
                    }
                    mine.append(PostgresWorkloads.seconds(ContinuousClock.now - began))
                }
                shared.latencies.withLock { $0 += mine }
                group.leave()
            }.start()
        }
        group.wait()
        let seconds = PostgresWorkloads.seconds(ContinuousClock.now - start)
        if let failure = shared.failures.withLock({ $0.first }) { throw BenchmarkError("raw \(workload): \(failure)") }
        return Result(count: count, seconds: seconds, latencies: shared.latencies.withLock { $0 })
    }
}

/// The work counter and the results the workers share.
final class Shared: Sendable {
    private let counter = Atomic<Int>(0)
    let latencies = Mutex<[Double]>([])
    let failures = Mutex<[String]>([])

    /// The next work item's index.
    func next() -> Int { counter.add(1, ordering: .relaxed).oldValue }
}

/// A raw connection handed to the one thread that uses it.
///
/// `@unchecked Sendable`: each box's connection is used by exactly one benchmark thread.
final class UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
