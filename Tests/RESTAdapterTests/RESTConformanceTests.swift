import AdapterConformance
import Foundation
import RESTAdapter
import RESTTestServer
import TestSupport
import Testing

/// RESTAdapter against the in-process test server, through the shared conformance suite.
@Suite(.runsOffThePool) struct RESTConformanceTests {
    /// Servers started for the suite's stores; each group gets its own.
    static let servers = ServerList()

    static let suite = AdapterConformance(
        adapter: "RESTAdapter", capabilities: [.persistence],
        limitations: [.noTransactions, .partialQueries, .jsonValues, .unnamedConstraintColumns, .remoteHistory],
        reopen: { old in
            // The server keeps the data: a new adapter on the same URL sees it.
            guard let old = old as? RESTAdapter else { throw CocoaError(.featureUnsupported) }
            return RESTAdapter(baseURL: old.baseURL, configuration: old.configuration)
        }
    ) {
        let server = try RESTTestServer(options: .init(uniqueFields: AdapterConformance.uniqueColumns))
        servers.add(server)
        var configuration = RESTConfiguration()
        configuration.queryEncoder = ParseQueryEncoder()
        return RESTAdapter(baseURL: server.baseURL, configuration: configuration)
    }

    @Test(arguments: ConformanceGroup.allCases) func conformance(_ group: ConformanceGroup) async {
        let report = await Self.suite.run([group])
        for failure in report.failures { Issue.record(Comment(rawValue: failure.description)) }
        #expect(report.checked[group] ?? 0 > 0 || group == .transactions || group == .history, "\(report)")
        let expectedSkips: Set<ConformanceGroup> = [
            .transactions, .asyncAPI, .concurrency, .notifications, .observation, .contexts, .uniqueness, .closing, .hostileValues, .history,
        ]
        #expect(report.skipped.isEmpty || expectedSkips.contains(group), "\(report)")
    }

    /// The plain encoder expresses less: what it refuses is reported, the rest must pass.
    static let plain = AdapterConformance(
        adapter: "RESTAdapter (plain parameters)", limitations: [.noTransactions, .partialQueries, .jsonValues, .remoteHistory]
    ) {
        let server = try RESTTestServer()
        servers.add(server)
        return RESTAdapter(baseURL: server.baseURL)
    }

    @Test(arguments: [ConformanceGroup.operators, .ordering, .eagerLoading, .crud, .ids])
    func plainParameters(_ group: ConformanceGroup) async {
        let report = await Self.plain.run([group])
        for failure in report.failures { Issue.record(Comment(rawValue: failure.description)) }
        #expect(report.checked[group] ?? 0 > 0, "\(report)")
    }
}

/// Keeps test servers alive until the process ends.
final class ServerList: Sendable {
    private let servers = NSLock()
    nonisolated(unsafe) private var list: [RESTTestServer] = []
    func add(_ server: RESTTestServer) { servers.withLock { list.append(server) } }
}
