import Foundation
import RESTAdapter
import RESTTestServer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Async calls on RESTAdapter: they await the adapter's own async operations (no
/// blocking-pool thread per request), bounded by `maxConcurrentRequests`, with the same
/// requests, answers, headers and tokens as the synchronous calls.
@Suite(.runsOffThePool) struct RESTAsyncTests {
    /// A todo with a UUID id and server-set fields.
    typealias Todo = RESTThirdPartyAPITests.Todo

    /// Runs `count` concurrent async finds of company 1 and returns their names.
    private nonisolated func concurrentFinds(_ count: Int, _ adapter: RESTAdapter) async throws -> [String?] {
        try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<count { group.addTask { try await Company.find(1, in: adapter)?.name } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// Waits (at most 30 s) until the server has seen `count` requests in flight at once.
    private func waitForPeak(_ count: Int, _ server: RESTTestServer) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while server.peakConcurrency < count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
    }

    @Test func asyncRequestsDoNotWaitForBlockingPoolThreads() async throws {
        let f = try RESTFixture()
        f.server.seed("companies", [["name": "Acme"]])
        // Every request is held at the server until all are there: on the blocking pool, at
        // most its threads (one per core) would ever be in flight together, so ask for more
        // than it has on this machine. The tasks share one thread.
        let count = max(16, BlockingPool.shared.threadCount + 4)
        let settings = URLSessionConfiguration.ephemeral
        settings.httpMaximumConnectionsPerHost = count
        let adapter = RESTAdapter(baseURL: f.server.baseURL, configuration: f.adapter.configuration, session: URLSession(configuration: settings))
        let release = FaultRelease()
        f.server.inject(.hold(release), method: "GET", times: count)
        f.server.resetPeakConcurrency()
        try await offThePool { executor in
            let finds = Task(executorPreference: executor) { try await concurrentFinds(count, adapter) }
            try await waitForPeak(count, f.server)
            #expect(f.server.peakConcurrency == count, "all \(count) requests were in flight at once")
            #expect(BlockingPool.shared.threadCount < count)
            release.release()
            #expect(try await finds.value == Array(repeating: "Acme", count: count))
        }
    }

    @Test func maxConcurrentRequestsBoundsRequestsInFlight() async throws {
        let f = try RESTFixture { $0.maxConcurrentRequests = 3 }
        f.server.seed("companies", [["name": "Acme"]])
        // The first requests are held until three are in flight and a moment has passed in
        // which a fourth could have gone out.
        let held = FaultRelease()
        f.server.inject(.hold(held), method: "GET", times: 12)
        f.server.resetPeakConcurrency()
        let adapter = f.adapter
        try await offThePool { executor in
            let finds = Task(executorPreference: executor) { try await concurrentFinds(12, adapter) }
            try await waitForPeak(3, f.server)
            try await Task.sleep(for: .milliseconds(200))
            held.release()
            let names = try await finds.value
            #expect(names.count == 12 && names.allSatisfy { $0 == "Acme" })
            #expect(f.server.peakConcurrency == 3)
        }
        // Synchronous calls share the same limit.
        let heldSync = FaultRelease()
        f.server.inject(.hold(heldSync), method: "GET", times: 8)
        f.server.resetPeakConcurrency()
        let done = DispatchGroup()
        for _ in 0..<8 {
            done.enter()
            Thread {
                _ = try? Company.find(1, in: adapter)
                done.leave()
            }.start()
        }
        try await waitForPeak(3, f.server)
        try await Task.sleep(for: .milliseconds(200))
        heldSync.release()
        await withCheckedContinuation { finished in done.notify(queue: .global()) { finished.resume() } }
        #expect(f.server.peakConcurrency == 3)
    }

    @Test func aTaskWaitingForASlotLeavesTheQueueWhenCancelled() async throws {
        let f = try RESTFixture { $0.maxConcurrentRequests = 1 }
        f.server.seed("companies", [["name": "Acme"]])
        // The first request is held until the waiter's cancellation is seen: a loaded
        // machine cannot let the slot come free first.
        let release = FaultRelease()
        f.server.inject(.hold(release), method: "GET")
        let adapter = f.adapter
        try await offThePool { executor in
            let holder = Task(executorPreference: executor) { try await Company.find(1, in: adapter)?.name }
            while f.server.requests.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
            let waiter = Task(executorPreference: executor) { try await Company.find(1, in: adapter)?.name }
            try await Task.sleep(for: .milliseconds(100))
            waiter.cancel()
            await #expect(throws: CancellationError.self) { try await waiter.value }
            #expect(f.server.requests.count == 1, "the cancelled request never went out")
            release.release()
            #expect(try await holder.value == "Acme")
            #expect(try await Company.find(1, in: adapter)?.name == "Acme", "the slot came back")
            #expect(f.server.requests.count == 2)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func closingFromTheCooperativePoolWaitsForTransfersNotTasks() async throws {
        let f = try RESTFixture()
        f.server.seed("companies", [["name": "Acme"]])
        f.server.inject(.delay(.milliseconds(500)), method: "GET")
        let adapter = f.adapter
        let request = Task { try await Company.find(1, in: adapter)?.name }
        while f.server.requests.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        // Occupy every cooperative thread: one closes the adapter (waiting for the transfer
        // in flight), the others block until it has. The request's task cannot run meanwhile,
        // so a close that waited for it would never return.
        let width = max(2, ProcessInfo.processInfo.activeProcessorCount)
        let closed = DispatchSemaphore(value: 0)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                try? adapter.close()
                for _ in 1..<width { closed.signal() }
            }
            for _ in 1..<width { group.addTask { closed.wait() } }
        }
        #expect(try await request.value == "Acme", "the answer arrived before the close finished")
        await #expect(throws: StoreError.self) { try await Company.find(1, in: adapter) }
    }

    @Test func asyncHeadersFollowTheTaskAndItsChildren() async throws {
        let f = try RESTFixture()
        f.server.seed("companies", [["name": "Acme"]])
        let adapter = f.adapter
        try await adapter.withHeaders(["X-Trace": "outer"]) {
            _ = try await Company.find(1, in: adapter)
            try await adapter.withHeaders(["X-Trace": "inner", "X-Extra": "1"]) {
                async let child = Company.find(1, in: adapter)
                _ = try await child
            }
        }
        _ = try await Company.find(1, in: adapter)
        let requests = f.server.requests
        #expect(requests.map { $0.header("X-Trace") } == ["outer", "inner", nil])
        #expect(requests.map { $0.header("X-Extra") } == [nil, "1", nil])
    }

    @Test func asyncSavesTakeWhatTheServerSet() async throws {
        var options = RESTTestServer.Options()
        options.ids = .uuid
        options.setsServerFields = true
        let f = try RESTFixture(options: options)
        f.adapter.register(Todo.self, RESTResource(idAssignment: .server, readOnlyColumns: ["url", "updated_at"]))
        let todo = try await Todo.create(["title": "t"], in: f.adapter)
        let id = try #require(todo.id)
        #expect(todo.url == "/todos/\(id.uuidString.lowercased())", "the create's answer was applied")
        let created = try #require(todo.updatedAt)
        #expect(!todo.isDirty)
        try await Task.sleep(for: .milliseconds(20))
        todo.title = "edited"
        try await todo.save()
        #expect(try #require(todo.updatedAt) > created, "the update's answer was applied")
        #expect(!todo.isDirty)
    }

    @Test func asyncCallsRefreshTheTokenAfter401() async throws {
        let fetches = Locked(0)
        let f = try RESTFixture(options: .init(acceptedTokens: ["t1"])) { configuration in
            configuration.tokenProvider = RefreshingToken {
                fetches.withLock { $0 += 1 }
                return fetches.withLock { "t\($0)" }
            }
        }
        _ = try await Company.create(["name": "Acme"], in: f.adapter)
        #expect(f.server.requests.last?.header("Authorization") == "Bearer t1")
        f.server.acceptTokens(["t2"])
        #expect(try await Company.find(1, in: f.adapter)?.name == "Acme")
        #expect(fetches.withLock { $0 } == 2, "refreshed once")
        f.server.acceptTokens(["never"])
        let error = await #expect(throws: RESTError.self) { try await Company.find(1, in: f.adapter) }
        #expect(error?.status == 401)
    }

    /// The requests of one run of every kind of call, as `METHOD path?query body`.
    private func transcript(async: Bool) async throws -> [String] {
        let f = try RESTFixture()
        let adapter = f.adapter
        if async {
            let acme = try await Company.create(["name": "Acme"], in: adapter)
            _ = try await Company.create(["name": "Beta"], in: adapter)
            acme.name = "Acme Corp"
            try await acme.save()
            _ = try await Company.find(1, in: adapter)
            _ = try await Company.where(\.name == "Beta").order(by: \.name).limit(5).using(adapter).all()
            _ = try await Company.query().using(adapter).count()
            _ = try await Company.query().using(adapter).including(\.employees).first()
            _ = try await Company.where(\.name == "Beta").using(adapter).updateAll(["name": "Gamma"])
            _ = try await Company.delete(id: 2, in: adapter)
            _ = try await acme.delete()
        } else {
            try Self.syncCalls(adapter)
        }
        return f.server.requests.map { request in
            let query = request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
            return "\(request.method) \(request.path)?\(query) \(String(decoding: request.body, as: UTF8.self))"
        }
    }

    /// The synchronous calls of ``transcript(async:)`` (a sync function: async code would
    /// pick the async forms).
    private static func syncCalls(_ adapter: RESTAdapter) throws {
        let acme = try Company.create(["name": "Acme"], in: adapter)
        _ = try Company.create(["name": "Beta"], in: adapter)
        acme.name = "Acme Corp"
        try acme.save()
        _ = try Company.find(1, in: adapter)
        _ = try Company.where(\.name == "Beta").order(by: \.name).limit(5).using(adapter).all()
        _ = try Company.query().using(adapter).count()
        _ = try Company.query().using(adapter).including(\.employees).first()
        _ = try Company.where(\.name == "Beta").using(adapter).updateAll(["name": "Gamma"])
        _ = try Company.delete(id: 2, in: adapter)
        _ = try acme.delete()
    }

    @Test func asyncAndSyncCallsSendTheSameRequests() async throws {
        let blocking = try await transcript(async: false)
        let suspending = try await transcript(async: true)
        #expect(blocking.count >= 11)
        #expect(suspending == blocking)
    }
}
