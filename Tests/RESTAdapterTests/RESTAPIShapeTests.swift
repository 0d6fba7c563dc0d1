import AdapterConformance
import ArrayAdapter
import Foundation
import RESTAdapter
import RESTTestServer
import SQLiteAdapter
import TestSupport
import Testing

/// The conformance suite and a sync round trip against `RESTTestServer` emulating the
/// conventions of APIs we did not write, each with the client settings that API needs.
/// (Server-assigned UUID and string ids, ignored query parameters and a Parse-style API
/// need models of their own: see `RESTThirdPartyAPITests` and `RESTParseStyleTests`.)
@Suite(.runsOffThePool) struct RESTAPIShapeTests {
    enum Shape: String, CaseIterable, Sendable {
        case envelope, missing204, missing400, missing410, serverFields, omittedNulls, patchNullMeansUnchanged

        var options: RESTTestServer.Options {
            var options = RESTTestServer.Options(uniqueFields: AdapterConformance.uniqueColumns)
            switch self {
            case .envelope: options.envelope = "data"
            case .missing204:
                options.missingStatus = 204  // a missing GET is an empty 204, a missing write a 400
                options.missingWriteStatus = 400
            case .missing400: options.missingStatus = 400
            case .missing410: options.missingStatus = 410
            case .serverFields: options.setsServerFields = true
            case .omittedNulls: options.omitsNulls = true
            case .patchNullMeansUnchanged: options.patchNullMeansUnchanged = true
            }
            return options
        }

        /// What a client of such an API configures.
        func configure(_ configuration: inout RESTConfiguration) {
            configuration.retry.baseDelay = .milliseconds(10)
            switch self {
            case .envelope: configuration.envelope = "data"
            case .missing204: configuration.defaultResource.notFoundStatuses = [204, 400, 404]
            case .missing400: configuration.defaultResource.notFoundStatuses = [400, 404]
            case .missing410: configuration.defaultResource.notFoundStatuses = [410, 404]
            case .serverFields: configuration.defaultResource.readOnlyColumns = ["url"]
            case .omittedNulls: break
            case .patchNullMeansUnchanged: configuration.defaultResource.clearing = .put
            }
        }

        func adapter() throws -> (RESTAdapter, RESTTestServer) {
            let server = try RESTTestServer(options: options)
            var configuration = RESTConfiguration()
            configuration.queryEncoder = ParseQueryEncoder()
            configure(&configuration)
            return (RESTAdapter(baseURL: server.baseURL, configuration: configuration), server)
        }
    }

    static let servers = ServerList()

    @Test(arguments: Shape.allCases) func theConformanceSuitePassesOnEachShape(_ shape: Shape) async {
        let suite = AdapterConformance(
            adapter: "RESTAdapter (\(shape))", capabilities: [.persistence],
            limitations: AdapterLimitations([.noTransactions, .partialQueries, .jsonValues, .unnamedConstraintColumns, .remoteHistory])
                .union(shape == .omittedNulls ? .omittedNulls : []),
            reopen: { old in
                // The server keeps the data: a new adapter on the same URL sees it.
                guard let old = old as? RESTAdapter else { throw CocoaError(.featureUnsupported) }
                return RESTAdapter(baseURL: old.baseURL, configuration: old.configuration)
            }
        ) {
            let (adapter, server) = try shape.adapter()
            Self.servers.add(server)
            return adapter
        }
        let groups = ConformanceGroup.allCases.filter { $0 != .closing && $0 != .concurrency && $0 != .history }  // history: the server's
        let report = await suite.run(groups)
        for failure in report.failures { Issue.record(Comment(rawValue: failure.description)) }
        let unchecked = groups.filter { report.checked[$0] ?? 0 == 0 && $0 != .transactions }
        #expect(unchecked.isEmpty, "\(report)")
    }

    final class Entry: Model {
        static var tableName: String { "entries" }
        @Column var title: String = ""
        @Column var note: String?
        @Column var updatedAt: Date?
        init() {}
    }

    @Test(arguments: Shape.allCases) func aSyncRoundTripWorksOnEachShape(_ shape: Shape) throws {
        let (api, server) = try shape.adapter()
        defer { server.stop() }
        server.seed("entries", [["title": "on the server", "note": "kept"]])
        let sync = RESTSync(remote: api, local: try SQLiteAdapter())
        try sync.track(Entry.self)
        #expect(try sync.pull(Entry.self).inserted == 1)
        let store = sync.store
        let fresh = try Entry.create(["title": "offline", "note": "draft"], in: store)
        let existing = try #require(try Entry.find(1, in: store))
        existing.note = nil  // cleared: PATCH null, or a PUT where null means unchanged
        try existing.save()
        let report = try sync.push()
        #expect(report.inserted == 1 && report.updated == 1 && report.failed == 0, "\(report)")
        let objects = server.objects(in: "entries")
        #expect(objects.map { $0["title"] } == ["on the server", "offline"])
        #expect((objects.first?["note"] ?? .null) == .null, "the cleared note is cleared on the server")
        #expect(objects.last?["note"] == .string("draft"))
        #expect(fresh.id == objects.last?["id"].flatMap { Int64(modelValue: $0) }, "the held record took the server's id")

        try fresh.delete()
        #expect(try sync.push().deleted == 1)
        #expect(server.objects(in: "entries").count == 1)
        #expect(try Entry.find(999, in: api) == nil, "a missing record is nil with this API's status")
        #expect(try sync.pull(Entry.self).inserted == 0)
        #expect(try Entry.all(in: store).map(\.title) == ["on the server"])
    }
}
