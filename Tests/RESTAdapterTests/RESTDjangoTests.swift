import Foundation
import RESTAdapter
import SQLiteAdapter
import Testing

/// A todo as the Django REST framework app in `Tests/DRFServer` serves it.
final class DjangoTodo: Model {
    static var tableName: String { "todos" }
    @Column var title: String = ""
    @Column var done: Bool = false
    @Column var priority: Int = 0
    @Column var due: Int?
    @Column var createdAt: Date?
    @Column var updatedAt: Date?
    init() {}
}

/// The Django REST framework API in `Tests/DRFServer/serve.py` (DefaultRouter,
/// PageNumberPagination, django-filter, TokenAuthentication), started for each test.
struct DjangoServer {
    /// Whether python3 has Django, DRF and django-filter (`pip install django
    /// djangorestframework django-filter`; `.ci/run` installs them and sets
    /// `SWIFTMODEL_REQUIRE_DJANGO=1`, which turns a skip into a failure).
    static let isAvailable: Bool = {
        if ProcessInfo.processInfo.environment["SWIFTMODEL_REQUIRE_DJANGO"] == "1" { return true }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import django, rest_framework, django_filters"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()
    static let skipReason: Comment = "no Django REST framework: pip install django djangorestframework django-filter"

    static let script: String = {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("DRFServer/serve.py").path
        return "import runpy, sys\nsys.argv = ['serve.py']\nrunpy.run_path(\(ModelJSON.serialize(.string(path))), run_name='__main__')\n"
    }()

    let server: PythonServer
    /// The tokens of users "one" and "two".
    let tokens: [String]

    init() throws {
        server = try PythonServer(Self.script)
        tokens = Array(server.words.dropFirst())
        try #require(tokens.count == 2, "serve.py printed \(server.words)")
    }

    /// django-filter's spelling: `__gte` suffixes, `ordering`, `priority__in=1,3`; pages in
    /// the body (`{"count", "next", "previous", "results"}`).
    static let encoder = PlainQueryEncoder(
        operatorSuffixes: [.less: "__lt", .lessOrEqual: "__lte", .greater: "__gt", .greaterOrEqual: "__gte"], sortParameter: "ordering",
        paging: .none, lists: .joined(suffix: "__in", separator: ","))

    /// An adapter as user `user` (0 or 1), the resource as declared (slash-less by default).
    func api(user: Int = 0, _ resource: RESTResource = RESTResource(), configure: (inout RESTConfiguration) -> Void = { _ in })
        -> RESTAdapter
    {
        var configuration = RESTConfiguration()
        configuration.tokenProvider = StaticToken(tokens[user], scheme: "Token")
        configuration.listEnvelope = "results"
        configuration.queryEncoder = Self.encoder
        configuration.retry = .none
        configure(&configuration)
        let adapter = RESTAdapter(baseURL: server.url(), configuration: configuration)
        var resource = resource
        resource.idAssignment = .server
        resource.readOnlyColumns = ["created_at", "updated_at"]
        adapter.register(DjangoTodo.self, resource)
        return adapter
    }
}

@Suite(.enabled(if: DjangoServer.isAvailable, DjangoServer.skipReason), .serialized)
struct RESTDjangoTests {
    let django: DjangoServer

    init() throws { django = try DjangoServer() }

    @Test func writesToSlashlessRoutesAreResentAfterDjangosRedirect() throws {
        defer { django.server.stop() }
        let api = django.api()
        let todo = try DjangoTodo.create(["title": "walk the dog", "priority": 2], in: api)
        #expect(todo.id == 1 && todo.createdAt != nil)
        todo.title = "walk the cat"
        try todo.save()
        #expect(try DjangoTodo.find(1, in: api)?.title == "walk the cat", "the PATCH reached Django")
        #expect(try todo.delete() == true)
        #expect(try DjangoTodo.find(1, in: api) == nil, "the DELETE reached Django")
    }

    @Test func routesDeclaredWithTheirSlashNeedNoRedirect() throws {
        defer { django.server.stop() }
        let api = django.api(RESTResource(collectionPath: "todos/", instancePath: "todos/:id/"))
        let todo = try DjangoTodo.create(["title": "slashed"], in: api)
        todo.done = true
        try todo.save()
        #expect(try DjangoTodo.find(todo.id ?? 0, in: api)?.done == true)
        #expect(try DjangoTodo.all(in: api).map(\.title) == ["slashed"])
    }

    @Test func listsFollowTheBodysNextPageAndATruncatedListIsAnError() throws {
        defer { django.server.stop() }
        let api = django.api()
        for k in 1...25 { _ = try DjangoTodo.create(["title": "t\(k)", "priority": k % 10], in: api) }
        #expect(try DjangoTodo.all(in: api).count == 25, "three pages of 10")
        #expect(try DjangoTodo.query().using(api).count() == 25)
        #expect(try DjangoTodo.where(\.priority >= 8).using(api).count() == 4)  // 8, 9, 18, 19
        // Told not to follow the body's links, the list is 10 of a declared 25: an error.
        let blind = django.api { $0.pagination.nextKey = nil }
        let thrown = #expect(throws: RESTError.self) { _ = try DjangoTodo.all(in: blind) }
        #expect(thrown?.kind == .incompleteList && thrown?.message.contains("25") == true, "\(String(describing: thrown))")
    }

    @Test func aPullDeletingMissingKeepsEveryRecordTheServerHas() throws {
        defer { django.server.stop() }
        let api = django.api()
        for k in 1...22 { _ = try DjangoTodo.create(["title": "server \(k)"], in: api) }
        let sync = RESTSync(remote: api, local: try SQLiteAdapter())
        try sync.track(DjangoTodo.self)
        for k in 1...3 { _ = try DjangoTodo.create(["title": "pushed \(k)"], in: sync.store) }
        _ = try sync.push()
        let report = try sync.pull(DjangoTodo.self, deletingMissing: true)
        #expect(report.deleted == 0, "\(report)")
        #expect(try DjangoTodo.count(in: sync.store) == 25)
        #expect(try DjangoTodo.query().using(api).count() == 25)
    }

    @Test func inFiltersGoInTheSpellingTheServerReads() throws {
        defer { django.server.stop() }
        let api = django.api()
        for k in 0..<10 { _ = try DjangoTodo.create(["title": "p\(k)", "priority": k], in: api) }
        let picked = try DjangoTodo.where("priority").in([1, 3, 7]).using(api).order(by: "priority").pluck(\.priority)
        #expect(picked == [1, 3, 7])
        // An encoder that declares no list spelling refuses `in` before sending anything.
        let strict = django.api { $0.queryEncoder = PlainQueryEncoder(operatorSuffixes: [:], paging: .none, lists: .none) }
        let thrown = #expect(throws: RESTError.self) { _ = try DjangoTodo.where("priority").in([1, 3]).using(strict).all() }
        #expect(thrown?.kind == .unsupportedQuery)
    }

    @Test func tokenAuthenticationNamesItsSchemeAndRefreshesAfterA401() throws {
        defer { django.server.stop() }
        _ = try DjangoTodo.create(["title": "one's"], in: django.api(user: 0))
        #expect(try DjangoTodo.all(in: django.api(user: 1)).isEmpty, "user two sees none of user one's todos")
        let tokens = django.tokens
        let fetches = Locked(0)
        let refreshing = django.api { configuration in
            // The first token is stale: Django answers 401, and the provider is asked again.
            configuration.tokenProvider = RefreshingToken(scheme: "Token") {
                fetches.withLock { count in
                    count += 1
                    return count == 1 ? "stale" : tokens[0]
                }
            }
        }
        #expect(try DjangoTodo.all(in: refreshing).map(\.title) == ["one's"])
        #expect(fetches.withLock { $0 } == 2)
    }
}
