import RESTAdapter
import AdapterConformance
import Foundation
import ModelServer
import RESTTestServer
import SQLiteAdapter
import Testing

/// RESTAdapter against the resource core over real HTTP (the test server's socket
/// server in front of `ModelResources` on SQLite): the shared conformance suite, so the
/// client and the server code we ship are checked against each other, in both query
/// formats.
@Suite(.timeLimit(.minutes(20))) struct ServedConformanceTests {
    static let servers = Locked<[RESTTestServer]>([])

    /// A fresh SQLite-backed server for one group, and a client on it.
    /// Both sides read one resource declaration (here: the query format).
    static func client(_ encoder: any RESTQueryEncoder) throws -> RESTAdapter {
        var resources = ModelResources(store: try SQLiteAdapter())
        for schema in AdapterConformance.modelSchemas { try resources.register(schema: schema, RESTResource(queryEncoder: encoder, idAssignment: .client)) }
        let server = try RESTTestServer(serving: resources)
        servers.withLock { $0.append(server) }
        var configuration = RESTConfiguration()
        configuration.queryEncoder = encoder
        // The in-process server answers every request; on a loaded machine (load 15 on 2
        // cores) a request may wait long for a core, and that is not a failure. A hang is
        // bounded by the suite's time limit instead of a wall-clock deadline per call.
        configuration.requestTimeout = .seconds(300)
        configuration.deadline = .seconds(600)
        return RESTAdapter(baseURL: server.baseURL, configuration: configuration)
    }

    static let reopen: @Sendable (any PersistenceAdapter) throws -> any PersistenceAdapter = { old in
        guard let old = old as? RESTAdapter else { throw CocoaError(.featureUnsupported) }
        return RESTAdapter(baseURL: old.baseURL, configuration: old.configuration)
    }

    static let parseStyle = AdapterConformance(
        adapter: "RESTAdapter → ModelResources (Parse-style queries)", capabilities: [.persistence],
        limitations: [.noTransactions, .partialQueries, .jsonValues, .unnamedConstraintColumns, .modelServer, .remoteHistory], reopen: reopen
    ) { try client(ParseQueryEncoder()) }

    static let plain = AdapterConformance(
        adapter: "RESTAdapter → ModelResources (plain queries)", capabilities: [.persistence],
        limitations: [.noTransactions, .partialQueries, .jsonValues, .unnamedConstraintColumns, .modelServer, .remoteHistory], reopen: reopen
    ) { try client(PlainQueryEncoder()) }

    @Test(arguments: ConformanceGroup.allCases) func parseStyleQueries(_ group: ConformanceGroup) async {
        let report = await Self.parseStyle.run([group])
        for failure in report.failures { Issue.record(Comment(rawValue: failure.description)) }
        #expect(report.checked[group] ?? 0 > 0 || group == .transactions || group == .history, "\(report)")
        let expectedSkips: Set<ConformanceGroup> = [
            .transactions, .asyncAPI, .concurrency, .notifications, .observation, .contexts, .closing, .writesByID, .relations,
            .uniqueness, .hostileValues, .history,
        ]
        #expect(report.skipped.isEmpty || expectedSkips.contains(group), "\(report)")
    }

    /// Plain parameters express less (no text matching, no null tests): the groups whose
    /// queries they can send, as for the schema-less test server.
    @Test(arguments: [ConformanceGroup.operators, .ordering, .eagerLoading, .crud, .ids])
    func plainQueries(_ group: ConformanceGroup) async {
        let report = await Self.plain.run([group])
        for failure in report.failures { Issue.record(Comment(rawValue: failure.description)) }
        #expect(report.checked[group] ?? 0 > 0 || group == .transactions || group == .history, "\(report)")
    }
}
