@testable import CrashHelper
import Foundation
import PostgresAdapter
import TestSupport
import Testing

/// Restarts the real server (`pg_ctl restart -m immediate`, a crash and recovery) under an
/// open transaction and idle pooled connections. It disrupts every other suite on that
/// server, so it runs alone, when `SWIFTMODEL_POSTGRES_RESTART_TESTS=1` (`.ci/run` does):
///
///     swift test --filter PostgresRestartTests
@Suite(
    .serialized,  // both tests restart the server
    .enabled(
        if: PostgresTestServer.isAvailable && PostgresTestServer.environment["SWIFTMODEL_POSTGRES_RESTART_TESTS"] == "1",
        "restarts the server: set SWIFTMODEL_POSTGRES_RESTART_TESTS=1 and run this suite alone"))
struct PostgresRestartTests {
    func restartServer() throws {
        let environment = PostgresTestServer.environment
        let bin = environment["SWIFTMODEL_POSTGRES_BIN"] ?? "/usr/lib/postgresql/15/bin"
        let data = try #require(environment["SWIFTMODEL_POSTGRES_DATA"])
        let pgctl = [bin + "/pg_ctl", "-D", data, "-m", "immediate", "-w", "restart", "-l", data + "/../primary.log"]
        let arguments = getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] + pgctl : pgctl
        #expect(try run(arguments) == 0, "pg_ctl restart failed")
    }

    /// Runs a program and waits for it with posix_spawn/waitpid (Foundation's `Process`
    /// can miss the exit of a child whose own children outlive it, as the server does).
    func run(_ arguments: [String]) throws -> Int32 {
        var pid: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let status = posix_spawn(&pid, arguments[0], nil, nil, argv, environ)
        guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EINVAL) }
        var exit: Int32 = 0
        while waitpid(pid, &exit, 0) < 0, errno == EINTR {}
        return (exit >> 8) & 0xFF
    }

    @Test func aServerCrashMidTransactionCommitsNothingAndThePoolRecovers() throws {
        let store = try PostgresTestServer.store()
        _ = try PgAccount.create(["owner": "before", "balance": 1], in: store)
        #expect(throws: PostgresError.self) {
            try store.withTransaction {
                for k in 0..<3 { _ = try PgAccount.create(["owner": .string("tx\(k)"), "balance": 1], in: store) }
                try restartServer()
                _ = try PgAccount.create(["owner": "after", "balance": 1], in: store)
            }
        }
        // Idle connections died with the server: reads retry, writes ping suspects first.
        #expect(try PgAccount.count(in: store) == 1)
        _ = try PgAccount.create(["owner": "next", "balance": 1], in: store)
        #expect(try PgAccount.query().using(store).pluck(\.owner).sorted() == ["before", "next"])
    }

    /// A writer commits generation after generation while the server crashes and restarts
    /// under it, 100 times: every acknowledged commit survives, nothing partial appears,
    /// and the writer's pool reconnects by itself.
    @Test func restartingTheServerMidTransactionKeepsEveryAcknowledgedCommit() throws {
        let rounds = reliabilityRounds(100)
        let configuration = PostgresTestServer.configuration()
        let writer = try PostgresAdapter(configuration)
        var durable = 0, interrupted = 0, inFlight = 0
        for round in 0..<rounds {
            let start = durable
            let state = Locked<(acknowledged: Int, failures: Int, stop: Bool)>((start, 0, false))
            let finished = DispatchSemaphore(value: 0)
            let thread = Thread {
                var generation = start + 1
                while !state.withLock({ $0.stop }) {
                    do {
                        try CrashSample.replaceGeneration(generation, count: CrashSample.smallCount(generation), in: writer)
                        state.withLock { $0.acknowledged = generation }
                        generation += 1
                    } catch {
                        state.withLock { $0.failures += 1 }
                        usleep(2_000)
                    }
                }
                finished.signal()
            }
            thread.start()
            usleep(UInt32.random(in: 5_000...60_000))
            try restartServer()
            usleep(UInt32.random(in: 0...20_000))
            state.withLock { $0.stop = true }
            finished.wait()
            let (acknowledged, failures, _) = state.withLock { $0 }
            if failures > 0 { interrupted += 1 }
            let reader = try PostgresAdapter(configuration)
            let generation = try checkWholeGeneration(reader, round: round)
            try? reader.close()
            #expect(generation == acknowledged || generation == acknowledged + 1, "round \(round): \(generation) after \(acknowledged)")
            if generation > acknowledged { inFlight += 1 }
            durable = generation
        }
        #expect(interrupted >= rounds / 2, "only \(interrupted) of \(rounds) restarts interrupted the writer")
        reportReliability(
            "PostgreSQL server: \(rounds) crash restarts (pg_ctl -m immediate), \(interrupted) of them interrupting a transaction, "
                + "0 acknowledged commits lost, 0 partial, \(inFlight) commits on the server before their acknowledgement")
    }
}
