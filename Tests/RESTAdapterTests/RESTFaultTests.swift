import Foundation
import ModelCore
import RESTAdapter
import RESTTestServer
import TestSupport
import Testing

/// Every fault the test server injects: typed errors, retries, deadlines, auth.
@Suite(.runsOffThePool) struct RESTFaultTests {
    @Test func anErrorStatusCarriesMethodURLStatusAndBody() throws {
        let f = try RESTFixture { $0.retry = .none }
        f.server.seed("companies", [["name": "Acme"]])
        f.server.inject(.status(500))
        let error = #expect(throws: RESTError.self) { try Company.find(1, in: f.adapter) }
        #expect(error?.kind == .status)
        #expect(error?.method == "GET")
        #expect(error?.status == 500)
        #expect(error?.url?.path == "/companies/1")
        #expect(error?.body == .dictionary(["error": "injected 500"]))
        #expect(error?.model == "Company")
    }

    @Test func malformedJSONWrongContentTypeAndBadRowsAreInvalidResponses() throws {
        let f = try RESTFixture { $0.retry = .none }
        f.server.seed("companies", [["name": "Acme"]])
        f.server.inject(.malformedJSON)
        #expect(throws: RESTError.self) { try Company.find(1, in: f.adapter) }
        f.server.inject(.wrongContentType)
        let html = #expect(throws: RESTError.self) { try Company.find(1, in: f.adapter) }
        #expect(html?.kind == .invalidResponse)
        #expect(html?.text?.contains("maintenance") == true)
        f.server.seed("companies", [["id": 7, "name": ["not": "a string"]]])
        let row = #expect(throws: RESTError.self) { try Company.find(7, in: f.adapter) }
        #expect(row?.kind == .invalidResponse)
        #expect(row.map { "\($0)" }?.contains("name") == true, "the error names the key")
    }

    @Test func aDroppedConnectionIsRetriedForGETs() throws {
        let f = try RESTFixture()
        f.server.seed("companies", [["name": "Acme"]])
        f.server.inject(.dropConnectionMidBody)
        #expect(try Company.find(1, in: f.adapter)?.name == "Acme")
        #expect(f.server.requests.count == 2)
        f.server.inject(.closeWithoutResponse, times: 5)
        let error = #expect(throws: RESTError.self) { try Company.find(1, in: f.adapter) }
        #expect(error?.kind == .transport)
        // Three attempts; URLSession may resend once itself on a reused connection that closed.
        #expect((4...7).contains(f.server.requests.count), "three attempts in all: \(f.server.requests.count)")
    }

    @Test func retryAfterIsHonouredOn503And429() throws {
        let f = try RESTFixture()
        f.server.seed("companies", [["name": "Acme"]])
        f.server.inject(.status(503, retryAfter: "1"))
        let start = ContinuousClock.now
        #expect(try Company.find(1, in: f.adapter)?.name == "Acme")
        #expect(ContinuousClock.now - start >= .seconds(1), "waited as asked")
        f.server.inject(.status(429, retryAfter: "0"), times: 3)
        let error = #expect(throws: RESTError.self) { try Company.find(1, in: f.adapter) }
        #expect(error?.status == 429, "the last status once the attempts run out")
    }

    @Test func aRetryAfterBeyondTheDeadlineFailsAtOnce() throws {
        let f = try RESTFixture { $0.deadline = .seconds(20) }
        f.server.seed("companies", [["name": "Acme"]])
        f.server.inject(.status(503, retryAfter: "60"))
        let start = ContinuousClock.now
        let error = #expect(throws: RESTError.self) { try Company.find(1, in: f.adapter) }
        #expect(error?.status == 503)
        // Waiting for the deadline would take 20 s; the bound leaves room for a loaded runner.
        #expect(ContinuousClock.now - start < .seconds(10))
    }

    @Test func postIsNotRetriedWithoutAnIdempotencyKey() throws {
        let f = try RESTFixture()
        f.server.inject(.status(503, retryAfter: "0"))
        #expect(throws: RESTError.self) { try Company.create(["name": "Once"], in: f.adapter) }
        #expect(f.server.requests.count == 1)
        #expect(f.server.objects(in: "companies").isEmpty)

        let keyed = try RESTFixture()
        keyed.adapter.register(Company.self, RESTResource(headers: ["Idempotency-Key": "create-acme-1"]))
        keyed.server.inject(.dropConnectionMidBody, method: "POST")
        _ = try Company.create(["name": "Acme"], in: keyed.adapter)
        #expect(keyed.server.requests.count == 2, "retried with its key")
    }

    @Test func aSubSecondDeadlineIsEnforced() throws {
        let f = try RESTFixture {
            $0.requestTimeout = .milliseconds(300)
            $0.deadline = .milliseconds(700)
        }
        f.server.seed("companies", [["name": "Acme"]])
        // The best of three calls: a loaded runner can stall one, while whole seconds would
        // hold every one for at least a second.
        var fastest = Duration.seconds(60)
        for _ in 0..<3 where fastest >= .milliseconds(1500) {
            f.server.inject(.delay(.seconds(3)), times: 3)
            let start = ContinuousClock.now
            let error = #expect(throws: RESTError.self) { try Company.find(1, in: f.adapter) }
            fastest = min(fastest, ContinuousClock.now - start)
            #expect(error?.kind == .timeout)
        }
        #expect(fastest < .milliseconds(1500), "stopped near 700 ms, not at Foundation's whole seconds: \(fastest)")
    }

    @Test func aDeadlineShorterThanTheRequestTimeoutEndsTheCall() throws {
        let f = try RESTFixture {
            $0.requestTimeout = .seconds(20)
            $0.deadline = .milliseconds(400)
        }
        f.server.seed("companies", [["name": "Acme"]])
        f.server.inject(.delay(.seconds(10)))
        let start = ContinuousClock.now
        let error = #expect(throws: RESTError.self) { try Company.find(1, in: f.adapter) }
        #expect(error?.kind == .timeout)
        // The server answers after 10 s; the bound leaves room for a loaded runner's stalls.
        #expect(ContinuousClock.now - start < .seconds(8), "the deadline, not the 20 s request timeout, ended it")
        // The message names the deadline, not the slice of it the last attempt had left.
        #expect(error?.message.contains("deadline of 0.4 seconds") == true, "\(String(describing: error))")
    }

    @Test func aBaseURLThatIsNotHTTPFailsAtOnce() throws {
        let adapter = RESTAdapter(baseURL: URL(string: "ftp://127.0.0.1:1/files") ?? URL(fileURLWithPath: "/"))
        let start = ContinuousClock.now
        let error = #expect(throws: RESTError.self) { try Company.find(1, in: adapter) }
        #expect(error?.kind == .route && error?.message.contains("not an http or https URL") == true, "\(String(describing: error))")
        #expect(ContinuousClock.now - start < .seconds(5), "it failed before any request, not at the deadline")
    }

    @Test func aRequestBegunAfterItsTaskWasCancelledIsNeverSent() async throws {
        let f = try RESTFixture()
        f.server.seed("companies", [["name": "Acme"]])
        let adapter = f.adapter
        let cancelledFirst = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await Company.find(1, in: adapter)?.name
        }
        await #expect(throws: CancellationError.self) { try await cancelledFirst.value }
        #expect(f.server.requests.isEmpty, "nothing was sent")
        // Cancelled while waiting to retry a 503: the retry is never sent.
        f.server.inject(.status(503, retryAfter: "1"))
        let waiting = Task { try await Company.find(1, in: adapter)?.name }
        while f.server.requests.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        try await Task.sleep(for: .milliseconds(1300))
        #expect(f.server.requests.count == 1, "the retry after the cancellation was never sent")
        // A blocking job whose task is already cancelled (as between the requests of a
        // multi-request operation): the transport itself sends nothing.
        let cancelled = BlockingCancellation()
        cancelled.cancel()
        #expect(throws: CancellationError.self) { try cancelled.whileCurrent { try Company.find(1, in: adapter) } }
        #expect(f.server.requests.count == 1, "the transport sent nothing for a cancelled job")
    }

    @Test func cancellingTheTaskCancelsTheRequestInFlight() async throws {
        let f = try RESTFixture()
        f.server.seed("companies", [["name": "Acme"]])
        // Held at the server for 20 s: only a cancelled transfer ends the call before.
        let release = FaultRelease()
        f.server.inject(.hold(release))
        DispatchQueue.global().asyncAfter(deadline: .now() + 20) { release.release() }
        let adapter = f.adapter
        try await offThePool { executor in
            let task = Task(executorPreference: executor) { try await Company.find(1, in: adapter)?.name }
            while f.server.requests.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
        }
        release.release()
    }

    @Test func headersAndTokensAreSentAndRefreshedAfter401() throws {
        let fetches = Locked(0)
        let f = try RESTFixture(options: .init(acceptedTokens: ["t1"])) { configuration in
            configuration.headers["X-Client"] = "tests"
            configuration.tokenProvider = RefreshingToken {
                fetches.withLock { $0 += 1 }
                return fetches.withLock { "t\($0)" }
            }
            configuration.configureRequest = { $0.setValue("trace-1", forHTTPHeaderField: "X-Trace") }
        }
        f.adapter.register(Company.self, RESTResource(headers: ["X-Model": "company"]))
        _ = try Company.create(["name": "Acme"], in: f.adapter)
        let first = try #require(f.server.requests.last)
        #expect(first.header("Authorization") == "Bearer t1")
        #expect(first.header("X-Client") == "tests")
        #expect(first.header("X-Model") == "company")
        #expect(first.header("X-Trace") == "trace-1")

        f.server.acceptTokens(["t2"])  // t1 expires
        #expect(try Company.find(1, in: f.adapter)?.name == "Acme")
        #expect(fetches.withLock { $0 } == 2, "refreshed once")
        f.server.acceptTokens(["never"])
        let error = #expect(throws: RESTError.self) { try Company.find(1, in: f.adapter) }
        #expect(error?.status == 401)
    }

    @Test func aStoppedServerIsATransportError() throws {
        let f = try RESTFixture { $0.retry = .none }
        f.server.stop()
        let error = #expect(throws: RESTError.self) { try Company.find(1, in: f.adapter) }
        #expect(error?.kind == .transport)
        #expect(error?.underlying != nil)
    }

    @Test func duplicateIDsAndMissingRecordsAreStoreErrors() throws {
        let f = try RESTFixture()
        f.server.seed("companies", [["id": 5, "name": "Acme"]])
        let dup = #expect(throws: StoreError.self) {
            _ = try f.adapter.insert([.int(5), .string("Again")], into: Company.schema)
        }
        #expect(dup?.kind == .duplicateID)
        let missing = #expect(throws: StoreError.self) {
            try f.adapter.update([.int(9), .string("X")], changedColumns: [1], in: Company.schema)
        }
        #expect(missing?.kind == .notFound)
        #expect(try f.adapter.delete(id: .int(9), from: Company.schema) == false)
    }

    /// On Linux, libcurl resends a request whose reused connection closed without a reply,
    /// but FoundationNetworking cannot rewind the body, so the resent POST stalls: the
    /// adapter's own attempt timeout is what ends it.
    @Test func aPOSTOnAReusedConnectionClosedWithoutReplyEndsAtTheAttemptTimeout() throws {
        let f = try RESTFixture {
            $0.retry = .none
            $0.requestTimeout = .seconds(1)
        }
        f.server.seed("companies", [["name": "Acme"]])
        // Opens the keep-alive connection. On a loaded runner (Thread Sanitizer) this first
        // request can outlast the 1 s attempt timeout the test is about: try it again then.
        var opened = false
        for _ in 0..<5 where !opened { opened = (try? Company.find(1, in: f.adapter)) != nil }
        try #require(opened, "the warm-up GET never answered within 1 s")
        f.server.inject(.closeWithoutResponse, method: "POST")
        let start = ContinuousClock.now
        let error = #expect(throws: RESTError.self) { try Company.create(["name": "x"], in: f.adapter) }
        #expect(error?.kind == .timeout || error?.kind == .transport)
        #expect(ContinuousClock.now - start < .seconds(10), "not a minute of URLSession's default timeout")
    }
}
