import Foundation
import PostgresAdapter
import Synchronization
import Testing

/// A pg_auto_failover formation (monitor, primary, synchronous secondary) whose primary is
/// killed under a write load: the adapter, given both nodes in one multi-host connection
/// string with `target_session_attrs=read-write`, reconnects to the promoted node by itself,
/// loses no acknowledged commit, resumes writing within a bounded time, and keeps reading
/// from the replica list. Runs only inside `Scripts/failover-cluster.sh run -- …`, which
/// starts the formation (it is destroyed by the test: one test per formation).
@Suite(.enabled(if: FailoverFormation.directory != nil, "no formation: run inside `Scripts/failover-cluster.sh run -- …`"))
struct PostgresFailoverTests {
    static let environment = FailoverFormation.environment
    static let directory = FailoverFormation.directory

    /// What the load saw: acknowledged inserts (owner names), failures by kind, reads.
    final class Load: Sendable {
        /// Owner names acknowledged, with when their write started.
        let acknowledged = Locked<[(owner: String, at: ContinuousClock.Instant)]>([])
        let failures = Locked<[String: Int]>([:])
        let unexpected = Locked<[String]>([])
        let reads = Locked<[(ok: Bool, at: ContinuousClock.Instant)]>([])
        let stop = Atomic<Bool>(false)

        func failed(_ error: any Error) {
            // Only a lost connection (or waiting for one) is an expected failure while the
            // primary is down; a write refused as read-only would mean a standby took it.
            if let error = error as? PostgresError, [.connection, .poolTimeout].contains(error.kind) {
                failures.withLock { $0[error.kind.rawValue, default: 0] += 1 }
            } else {
                unexpected.withLock { $0.append("\(error)") }
            }
        }
    }

    static func killPrimary(_ directory: String) throws -> String {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Scripts/failover-cluster.sh")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script.path, "kill-primary", directory]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        let node = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0)
        return node.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aKilledPrimaryFailsOverWithoutLosingAcknowledgedCommits() throws {
        let directory = try #require(Self.directory)
        var configuration = PostgresConfiguration(Self.environment["SWIFTMODEL_FAILOVER_URL"] ?? "")
        configuration.replicas = [Self.environment["SWIFTMODEL_FAILOVER_STANDBY_URL"] ?? ""]
        configuration.maximumConnections = 4
        configuration.acquireTimeout = .seconds(2)
        configuration.healthCheckInterval = .seconds(1)
        let store = try PostgresAdapter(configuration)
        try store.prepare(PgAccount.schema)
        let load = Load()
        let clock = ContinuousClock()
        let finished = DispatchGroup()
        for writer in 0..<3 {
            finished.enter()
            Thread {
                defer { finished.leave() }
                var k = 0
                while !load.stop.load(ordering: .relaxed) {
                    let owner = "w\(writer)-\(k)"
                    let started = clock.now
                    k += 1
                    do {
                        if k % 4 == 0 {
                            // Every fourth write is a pipelined transaction of two.
                            try store.transaction {
                                _ = try PgAccount.create(["owner": .string(owner), "balance": 1], in: store)
                                _ = try PgAccount.create(["owner": .string(owner + "b"), "balance": 1], in: store)
                            }
                            load.acknowledged.withLock { $0 += [(owner, started), (owner + "b", started)] }
                        } else {
                            _ = try PgAccount.create(["owner": .string(owner), "balance": 1], in: store)
                            load.acknowledged.withLock { $0.append((owner, started)) }
                        }
                    } catch {
                        load.failed(error)
                        Thread.sleep(forTimeInterval: 0.05)
                    }
                }
            }.start()
        }
        finished.enter()
        Thread {
            defer { finished.leave() }
            while !load.stop.load(ordering: .relaxed) {
                let started = clock.now
                let ok = (try? PgAccount.count(in: store)) != nil
                load.reads.withLock { $0.append((ok, started)) }
                Thread.sleep(forTimeInterval: 0.02)
            }
        }.start()

        Thread.sleep(forTimeInterval: 1.5)
        let node = try Self.killPrimary(directory)
        let killedAt = clock.now  // the script returns once the primary is dead
        #expect(!node.isEmpty)
        // Load until writes started after the kill have succeeded for 2 s, or 90 s.
        var resumedAt: ContinuousClock.Instant?
        while clock.now - killedAt < .seconds(90) {
            Thread.sleep(forTimeInterval: 0.1)
            resumedAt = load.acknowledged.withLock { $0.first { $0.at > killedAt }?.at }
            if let resumedAt, clock.now - resumedAt > .seconds(2) { break }
        }
        load.stop.store(true, ordering: .relaxed)
        finished.wait()

        let resumed = try #require(resumedAt, "writes never resumed after the primary was killed")
        let outage = resumed - killedAt
        print("failover: killed \(node); writes resumed after \(outage); failures \(load.failures.withLock { $0 })")
        #expect(outage < .seconds(60))
        #expect(load.unexpected.withLock { $0 }.isEmpty, "\(load.unexpected.withLock { $0.prefix(5) })")

        // Every acknowledged commit is on the promoted node.
        let acknowledged = Set(load.acknowledged.withLock { $0.map(\.owner) })
        let stored = Set(try PgAccount.all(in: store).map(\.owner))
        #expect(acknowledged.count > 10)
        #expect(acknowledged.subtracting(stored).isEmpty, "lost: \(acknowledged.subtracting(stored).sorted().prefix(10))")
        // Reads through the replica list work again after the failover.
        let readsAfter = load.reads.withLock { $0.filter { $0.at > resumed } }
        #expect(!readsAfter.isEmpty && readsAfter.allSatisfy(\.ok))
        #expect(try PgAccount.count(in: store) == stored.count)
    }
}

/// The formation `Scripts/failover-cluster.sh` started, from its exports.
enum FailoverFormation {
    static let environment = ProcessInfo.processInfo.environment
    static let directory = environment["SWIFTMODEL_FAILOVER_DIR"]
}
