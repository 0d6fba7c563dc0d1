import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends requests with the adapter's deadline, retries, token refresh, redirect rules,
/// body limit, concurrency limit and cancellation: blocking the calling thread (the
/// contract of ``PersistenceAdapter``) or suspending the calling task (``AsyncPersistenceAdapter``).
///
/// Responses arrive through the session's delegate on its own serial queue, which wakes
/// a waiting thread or resumes a waiting task: neither depends on the other's threads.
///
/// The transport always owns its session, made from the configuration of a session the
/// caller passes: only a delegate of its own can stop URLSession from following a redirect
/// to another host with the `Authorization` header, and refuse an oversized body while it
/// streams in.
final class HTTPTransport: Sendable {
    let session: URLSession
    let delegate = HTTPSessionDelegate()
    let configuration: RESTConfiguration
    /// Where credentials may go: the base URL's scheme, host and port.
    let origin: RESTOrigin
    /// Requests in flight, so ``close(_:)`` waits for them.
    let gate = CloseGate()
    /// Requests in flight at once (``RESTConfiguration/maxConcurrentRequests``).
    let limiter: RequestLimiter
    /// The timeouts of async attempts in flight.
    let timeouts = AttemptTimeouts()

    init(baseURL: URL, configuration: RESTConfiguration, session: URLSession?) {
        self.configuration = configuration
        origin = RESTOrigin(baseURL)
        limiter = RequestLimiter(limit: configuration.maxConcurrentRequests)
        let settings: URLSessionConfiguration
        if let session {
            settings = session.configuration
        } else {
            settings = URLSessionConfiguration.ephemeral
            settings.requestCachePolicy = .reloadIgnoringLocalCacheData
            settings.urlCache = nil
            settings.httpMaximumConnectionsPerHost = 16
            // Our own deadline is exact; this only stops URLSession from giving up first.
            settings.timeoutIntervalForRequest = max(1, (Self.seconds(configuration.requestTimeout)).rounded(.up) + 1)
        }
        let queue = OperationQueue()
        // Serial: a task's callbacks (head, body, end) must arrive in order.
        queue.maxConcurrentOperationCount = 1
        queue.name = "RESTAdapter.responses"
        self.session = URLSession(configuration: settings, delegate: delegate, delegateQueue: queue)
    }

    /// Waits for the requests in flight, then refuses new ones (``StoreError`` `.closed`)
    /// and invalidates the session (always the transport's own).
    ///
    /// "In flight" is per transfer, and a transfer leaves when the session's delegate
    /// reports its end: waiting never depends on a task resuming, so closing from the
    /// cooperative pool cannot wait for work that needs a cooperative thread.
    func close() {
        guard gate.close() else { return }
        session.finishTasksAndInvalidate()
    }

    static func seconds(_ duration: Duration) -> Double {
        let (s, atto) = duration.components
        return Double(s) + Double(atto) / 1e18
    }

    /// Sends `request` (retrying per the policy, following same-origin redirects) and
    /// returns the response, whatever its status: the caller decides what a status means.
    /// Blocks the calling thread; the rules are ``HTTPExchange``'s.
    ///
    /// - Parameter deadline: when the whole call must be done (every page of a list shares
    ///   one); by default the configured ``RESTConfiguration/deadline`` from now.
    func send(_ request: URLRequest, model: String?, deadline: ContinuousClock.Instant? = nil) throws -> RESTResponse {
        try refuseIfClosed(request)
        var exchange = HTTPExchange(request, transport: self, model: model, deadline: deadline)
        let provider = configuration.tokenProvider
        if exchange.credentialed { exchange.use(token: try provider?.token()) }
        while true {
            let (attempt, timeout) = try exchange.nextAttempt()
            switch try exchange.handle(once(attempt, timeout: timeout, model: model)) {
            case .done(let response): return response
            case .again: continue
            case .wait(let delay): try sleep(delay)
            case .refresh(let rejected, let response):
                guard let fresh = try provider?.refresh(rejected: rejected) else { return response }
                exchange.retry(with: fresh)
            }
        }
    }

    /// ``send(_:model:deadline:)`` for async callers: suspends while the request is in
    /// flight (and while it waits for a slot, a retry or a token) without holding a thread.
    /// Cancelling the task cancels the request in flight.
    func send(_ request: URLRequest, model: String?, deadline: ContinuousClock.Instant? = nil) async throws -> RESTResponse {
        try refuseIfClosed(request)
        var exchange = HTTPExchange(request, transport: self, model: model, deadline: deadline)
        let provider = configuration.tokenProvider
        if exchange.credentialed, let provider { exchange.use(token: try await provider.token()) }
        while true {
            let (attempt, timeout) = try exchange.nextAttempt()
            switch try exchange.handle(await once(attempt, timeout: timeout, model: model)) {
            case .done(let response): return response
            case .again: continue
            case .wait(let delay): try await Task.sleep(for: delay)
            case .refresh(let rejected, let response):
                guard let provider, let fresh = try await provider.refresh(rejected: rejected) else { return response }
                exchange.retry(with: fresh)
            }
        }
    }

    /// `Retry-After` as seconds or an HTTP date.
    static func retryAfter(_ value: String?) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Double(value), seconds >= 0, seconds < 86_400 { return .milliseconds(Int64(seconds * 1000)) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        let seconds = max(0, date.timeIntervalSinceNow)
        return seconds < 86_400 ? .milliseconds(Int64(seconds * 1000)) : nil
    }
}
