import Foundation
import ModelServer
import Synchronization
import TestSupport
import Testing

/// Lists: both query formats through the model layer, strict parameters, page bounds,
/// `X-Total-Count` and `Link` paging in the request's own format, envelopes.
@Suite struct ResourceQueryTests {
    static func seeded(_ configure: (inout ResourceOptions) -> Void = { _ in }) async throws -> ServerFixture {
        var options = ResourceOptions()
        configure(&options)
        let fixture = try ServerFixture(options: options)
        for k in 0..<12 { _ = try await fixture.todo("t\(k)", priority: k % 6) }
        return fixture
    }

    static func titles(_ response: ResourceResponse) -> [String] {
        guard case .array(let objects) = response.json else { return [] }
        return objects.compactMap { if case .string(let t) = $0["title"] ?? .null { t } else { nil } }
    }

    @Test func plainAndParseStyleQueriesAgree() async throws {
        let fixture = try await Self.seeded()
        let plain = await fixture.send("GET", "/srv_todos?priority_gte=3&priority_lt=5&sort=-priority,title")
        let parse = await fixture.send("GET", #"/srv_todos?where={"priority":{"$gte":3,"$lt":5}}&order=-priority,title"#)
        #expect(plain.status == 200 && parse.status == 200, "\(plain.text) \(parse.text)")
        #expect(Self.titles(plain) == ["t10", "t4", "t3", "t9"])
        #expect(Self.titles(parse) == Self.titles(plain))
        #expect(plain.header("X-Total-Count") == "4")
    }

    @Test func unknownOrMalformedParametersAre400sNamingThem() async throws {
        let fixture = try await Self.seeded()
        for (target, named) in [
            ("/srv_todos?colour=red", "colour"), ("/srv_todos?priority=high", "priority"), ("/srv_todos?sort=nope", "nope"),
            ("/srv_todos?limit=-1", "limit"), (#"/srv_todos?where={"$where":"1"}"#, "$where"), ("/srv_todos?limit=5000", "limit"),
        ] {
            let response = await fixture.send("GET", target)
            #expect(response.status == 400 && response.code == "bad_query", "\(target): \(response.text)")
            #expect(response.text.contains(named), "\(target): \(response.text)")
        }
    }

    @Test func pagesLinkToTheNextInTheSameFormatUntilTheEnd() async throws {
        let fixture = try await Self.seeded { $0.limits.pageSize = 5 }
        for first in ["/srv_todos?sort=title", "/srv_todos?order=title&limit=5&where={}"] {
            var target: String? = first
            var seen: [String] = []
            var pages = 0
            while let next = target, pages < 10 {
                let response = await fixture.send("GET", next)
                #expect(response.status == 200 && response.header("X-Total-Count") == "12", "\(next): \(response.text)")
                #expect(Self.titles(response).count <= 5)
                seen += Self.titles(response)
                pages += 1
                target = response.header("Link").flatMap { link in
                    link.split(separator: ">").first.map { String($0.dropFirst()) }
                }
            }
            #expect(pages == 3 && seen == (0..<12).map { "t\($0)" }.sorted(), "\(first)")
        }
        // An unbounded request gets the largest page, and a link to the rest.
        let all = await fixture.send("GET", "/srv_todos")
        #expect(Self.titles(all).count == 5 && all.header("Link")?.contains("offset=5") == true)
    }

    /// 12 rows in pages of 4 and 6 end exactly on a boundary: the last full page links no
    /// next page (a client would fetch an empty one, or a server that counts wrong loop).
    @Test(arguments: [4, 6]) func aListEndingOnAPageBoundaryLinksNoNextPage(pageSize: Int) async throws {
        let fixture = try await Self.seeded { $0.limits.pageSize = pageSize }
        var target: String? = "/srv_todos?sort=title"
        var pages: [Int] = []
        while let next = target, pages.count < 10 {
            let response = await fixture.send("GET", next)
            pages.append(Self.titles(response).count)
            target = response.header("Link").flatMap { link in link.split(separator: ">").first.map { String($0.dropFirst()) } }
        }
        #expect(pages == Array(repeating: pageSize, count: 12 / pageSize), "\(pages)")
        let last = await fixture.send("GET", "/srv_todos?sort=title&offset=\(12 - pageSize)&limit=\(pageSize)")
        #expect(Self.titles(last).count == pageSize && last.header("Link") == nil)
    }

    @Test func headAnswersHeadersOnlyAndEnvelopesWrapBodies() async throws {
        let fixture = try await Self.seeded()
        let head = await fixture.send("HEAD", "/srv_todos?done=false")
        #expect(head.status == 200 && head.body.isEmpty && head.header("X-Total-Count") == "12")
        var enveloped = ModelResources(store: fixture.store)
        var resource = RESTResource()
        resource.envelope = "todo"
        try enveloped.register(SrvTodo.self, resource)
        let one = await enveloped.respond(to: ResourceRequest(method: "GET", target: "/srv_todos/1"))
        #expect(one.json["todo"]?["title"] == "t0")
        let created = await enveloped.respond(
            to: ResourceRequest(method: "POST", target: "/srv_todos", headers: jsonType, body: Data(#"{"todo":{"title":"wrapped"}}"#.utf8)))
        #expect(created.status == 201 && created.json["todo"]?["title"] == "wrapped", "\(created.text)")
    }
}

/// A list's last page and its `X-Total-Count` agree while another client writes: the
/// total a short page declares is the rows it saw, not a count made after a write landed.
@Suite struct ResourceListTotalTests {
    /// An in-memory store where another writer inserts a todo right after each list fetch
    /// (between the page's read and any count that follows it).
    final class BusyStore: ForwardingAdapter, @unchecked Sendable {
        // `@unchecked Sendable`: `armed` is a `Mutex`.
        let armed = Mutex(false)

        override func fetch(_ query: StoreQuery) throws -> [[ModelValue]] {
            let rows = try base.fetch(query)
            if armed.withLock({ $0 }), query.schema.tableName == SrvTodo.schema.tableName {
                let other = SrvTodo()
                other.title = "written meanwhile"
                try other.save(to: base)
            }
            return rows
        }
    }

    @Test func aShortPageDeclaresTheRowsItHolds() async throws {
        let store = BusyStore()
        var resources = ModelResources(store: store)
        try resources.register(SrvTodo.self, options: ResourceOptions())
        for k in 0..<3 {
            let todo = SrvTodo()
            todo.title = "t\(k)"
            try await todo.save(to: store)
        }
        store.armed.withLock { $0 = true }
        let response = await resources.respond(to: ResourceRequest(method: "GET", target: "/srv_todos", headers: [], body: Data()))
        #expect(response.status == 200, "\(response.text)")
        #expect(ResourceQueryTests.titles(response) == ["t0", "t1", "t2"])
        #expect(response.header("X-Total-Count") == "3", "the page holds 3 rows (a 4th was written after the read)")
    }
}
