import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends requests and waits for their responses on the calling thread, with the
/// adapter's deadline, retries, token refresh, redirect rules, body limit and
/// cancellation.
///
/// Blocking is the contract of ``PersistenceAdapter``; the async API calls adapters from
/// its own threads, never the cooperative pool. Responses arrive through the session's
/// delegate (on its own queue), so a waiting thread never depends on Swift concurrency's
/// threads to be woken.
///
/// The transport always owns its session, made from the configuration of a session the
/// caller passes: only a delegate of its own can stop URLSession from following a redirect
/// to another host with the `Authorization` header, and refuse an oversized body while it
/// streams in.
final class HTTPTransport: Sendable {
    let session: URLSession
    let configuration: RESTConfiguration
    /// Where credentials may go: the base URL's scheme, host and port.
    let origin: RESTOrigin
    private let delegate = HTTPSessionDelegate()
    /// Requests in flight, so ``close(_:)`` waits for them.
    private let gate = CloseGate()

    init(baseURL: URL, configuration: RESTConfiguration, session: URLSession?) {
        self.configuration = configuration
        origin = RESTOrigin(baseURL)
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
    ///
    /// - Parameter deadline: when the whole call must be done (every page of a list shares
    ///   one); by default the configured ``RESTConfiguration/deadline`` from now.
    func send(_ original: URLRequest, model: String?, deadline: ContinuousClock.Instant? = nil) throws -> RESTResponse {
        try gate.enter { StoreError.closed("REST store for \(original.url?.host ?? "?")") }
        defer { gate.leave() }
        let policy = configuration.retry
        let deadline = deadline ?? ContinuousClock.now + configuration.deadline
        var credentialed = origin.contains(original.url)
        // A request for another origin (a next-page link RESTConfiguration.crossOrigin allows) goes bare.
        var current = credentialed ? original : Self.withoutCredentials(original)
        var redirects = 0
        var attempt = 0
        var refreshed = false
        var token = credentialed ? try configuration.tokenProvider?.token() : nil
        while true {
            attempt += 1
            let method = current.httpMethod ?? "GET"
            let url = current.url ?? URL(fileURLWithPath: "/")
            let idempotent =
                ["GET", "HEAD", "PUT", "DELETE", "OPTIONS"].contains(method) || (method == "PATCH" && policy.retriesPATCH)
                || current.value(forHTTPHeaderField: "Idempotency-Key") != nil
            var request = current
            if credentialed {
                if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
                if let configure = configuration.configureRequest { try configure(&request) }
            }
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else {
                throw RESTError(.timeout, method: method, url: url, model: model, message: "the deadline of \(configuration.deadline) passed")
            }
            let outcome = try once(request, timeout: min(remaining, configuration.requestTimeout), model: model)
            var wait: Duration?
            switch outcome {
            case .response(let response):
                if let next = try redirect(response, from: current, count: &redirects, model: model) {
                    current = next
                    if credentialed && !origin.contains(next.url) {
                        credentialed = false
                        token = nil
                    }
                    attempt -= 1
                    continue
                }
                if response.status == 401, credentialed, !refreshed, let provider = configuration.tokenProvider,
                    let fresh = try provider.refresh(rejected: token)
                {
                    refreshed = true
                    token = fresh
                    attempt -= 1
                    continue
                }
                guard idempotent, attempt < policy.maxAttempts, policy.retryStatuses.contains(response.status) else {
                    return response
                }
                wait = Self.retryAfter(response.header("Retry-After"))
                if let asked = wait, ContinuousClock.now + asked > deadline { return response }  // the server asks for too long
            case .failure(let error):
                guard idempotent, attempt < policy.maxAttempts, error.kind == .transport || error.kind == .timeout else {
                    throw error
                }
            }
            let delay = wait ?? backoff(attempt: attempt)
            guard ContinuousClock.now + delay < deadline else {
                switch outcome {
                case .response(let response): return response
                case .failure(let error): throw error
                }
            }
            try sleep(delay)
        }
    }

    /// Exponential backoff with jitter: base × 2^(attempt−1) × [0.5, 1), capped.
    private func backoff(attempt: Int) -> Duration {
        let policy = configuration.retry
        let base = Self.seconds(policy.baseDelay) * pow(2, Double(min(attempt - 1, 20)))
        let capped = min(base, Self.seconds(policy.maxDelay))
        return .milliseconds(Int64(capped * Double.random(in: 0.5..<1) * 1000))
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

    /// Sleeps, waking early (with `CancellationError`) when the task is cancelled.
    private func sleep(_ duration: Duration) throws {
        let semaphore = DispatchSemaphore(value: 0)
        let cancellation = BlockingCancellation.current
        let token = cancellation?.onCancel { semaphore.signal() }
        defer { if let token { cancellation?.remove(token) } }
        if cancellation?.isCancelled == true { throw CancellationError() }
        _ = semaphore.wait(timeout: .now() + Self.seconds(duration))
        if cancellation?.isCancelled == true { throw CancellationError() }
    }

    private enum Outcome {
        case response(RESTResponse)
        case failure(RESTError)
    }

    /// One attempt.
    private func once(_ request: URLRequest, timeout: Duration, model: String?) throws -> Outcome {
        let method = request.httpMethod ?? "GET"
        let url = request.url ?? URL(fileURLWithPath: "/")
        let cancellation = BlockingCancellation.current
        let box = Locked<TransferResult?>(nil)
        let done = DispatchSemaphore(value: 0)
        let transfer = Transfer(limit: configuration.maxResponseBytes) { result in
            box.withLock { $0 = result }
            done.signal()
        }
        // Already cancelled: nothing is started, so the request is never sent.
        if cancellation?.isCancelled == true { throw CancellationError() }
        let task = delegate.start(request, on: session, transfer)
        var token: Int?
        if let cancellation {
            token = cancellation.onCancel { task.cancel() }
            if token == nil { task.cancel() }
        }
        defer { if let token { cancellation?.remove(token) } }
        if done.wait(timeout: .now() + Self.seconds(timeout)) == .timedOut {
            // Not waited for: its completion only fills `box`, which nobody reads any more.
            task.cancel()
            return .failure(RESTError(.timeout, method: method, url: url, model: model, message: "no response within \(timeout)"))
        }
        if cancellation?.isCancelled == true { throw CancellationError() }
        switch box.withLock({ $0 }) {
        case nil:
            return .failure(RESTError(.transport, method: method, url: url, model: model, message: "no result"))
        case .tooLarge(let bytes, let limit):
            throw RESTError(
                .responseTooLarge, method: method, url: url, model: model,
                message: "the response body passed \(limit) bytes (\(bytes) received or declared; RESTConfiguration.maxResponseBytes)")
        case .failure(let error):
            let sendable = (error as? URLError).map { $0 as any Error & Sendable }
            return .failure(
                RESTError(
                    .transport, method: method, url: url, underlying: sendable, model: model,
                    message: sendable == nil ? "\(error)" : "the request failed"))
        case .response(let http, let data):
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
            }
            return .response(RESTResponse(method: method, url: url, status: http.statusCode, headers: headers, body: data))
        }
    }
}
