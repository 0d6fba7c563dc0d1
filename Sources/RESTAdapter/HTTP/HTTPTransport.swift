import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends requests and waits for their responses on the calling thread, with the
/// adapter's deadline, retries, token refresh and cancellation.
///
/// Blocking is the contract of ``PersistenceAdapter``; the async API calls adapters from
/// its own threads, never the cooperative pool. Responses arrive through URLSession's
/// completion handlers (on the session's delegate queue), so a waiting thread never
/// depends on Swift concurrency's threads to be woken.
final class HTTPTransport: Sendable {
    let session: URLSession
    let configuration: RESTConfiguration
    /// Whether the session is ours to invalidate on close (not one the caller passed).
    private let ownsSession: Bool
    /// Requests in flight, so ``close(_:)`` waits for them.
    private let gate = CloseGate()

    init(configuration: RESTConfiguration, session: URLSession?) {
        self.configuration = configuration
        ownsSession = session == nil
        if let session {
            self.session = session
        } else {
            let settings = URLSessionConfiguration.ephemeral
            settings.requestCachePolicy = .reloadIgnoringLocalCacheData
            settings.urlCache = nil
            settings.httpMaximumConnectionsPerHost = 16
            // Our own deadline is exact; this only stops URLSession from giving up first.
            settings.timeoutIntervalForRequest = max(1, (Self.seconds(configuration.requestTimeout)).rounded(.up) + 1)
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 4
            queue.name = "RESTAdapter.responses"
            self.session = URLSession(configuration: settings, delegate: nil, delegateQueue: queue)
        }
    }

    /// Waits for the requests in flight, then refuses new ones (``StoreError`` `.closed`)
    /// and invalidates the session if it is ours.
    func close() {
        guard gate.close() else { return }
        if ownsSession { session.finishTasksAndInvalidate() }
    }

    static func seconds(_ duration: Duration) -> Double {
        let (s, atto) = duration.components
        return Double(s) + Double(atto) / 1e18
    }

    /// Sends `request` (retrying per the policy) and returns the response, whatever its
    /// status, except that statuses still failing after the retries are returned too:
    /// the caller decides what a status means.
    func send(_ original: URLRequest, model: String?) throws -> RESTResponse {
        try gate.enter { StoreError.closed("REST store for \(original.url?.host ?? "?")") }
        defer { gate.leave() }
        let method = original.httpMethod ?? "GET"
        let url = original.url ?? URL(fileURLWithPath: "/")
        let policy = configuration.retry
        let start = ContinuousClock.now
        let deadline = start + configuration.deadline
        let idempotent =
            ["GET", "HEAD", "PUT", "DELETE", "OPTIONS"].contains(method) || (method == "PATCH" && policy.retriesPATCH)
            || original.value(forHTTPHeaderField: "Idempotency-Key") != nil
        var attempt = 0
        var refreshed = false
        var token = try configuration.tokenProvider?.token()
        while true {
            attempt += 1
            var request = original
            if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
            if let configure = configuration.configureRequest { try configure(&request) }
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else {
                throw RESTError(.timeout, method: method, url: url, model: model, message: "the deadline of \(configuration.deadline) passed")
            }
            let outcome = try once(request, timeout: min(remaining, configuration.requestTimeout), model: model)
            var wait: Duration?
            switch outcome {
            case .response(let response):
                if response.status == 401, !refreshed, let provider = configuration.tokenProvider,
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
        let box = Locked<(Data?, URLResponse?, (any Error)?)?>(nil)
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: request) { data, response, error in
            box.withLock { $0 = (data, response, error) }
            done.signal()
        }
        var token: Int?
        if let cancellation {
            token = cancellation.onCancel { task.cancel() }
            // Already cancelled: the task is never resumed, so the request is never sent.
            if token == nil { throw CancellationError() }
        }
        defer { if let token { cancellation?.remove(token) } }
        task.resume()
        if done.wait(timeout: .now() + Self.seconds(timeout)) == .timedOut {
            task.cancel()
            done.wait()
            return .failure(RESTError(.timeout, method: method, url: url, model: model, message: "no response within \(timeout)"))
        }
        if cancellation?.isCancelled == true { throw CancellationError() }
        guard let (data, response, error) = box.withLock({ $0 }) else {
            return .failure(RESTError(.transport, method: method, url: url, model: model, message: "no result"))
        }
        if let error {
            let sendable = (error as? URLError).map { $0 as any Error & Sendable }
            return .failure(
                RESTError(
                    .transport, method: method, url: url, underlying: sendable, model: model,
                    message: sendable == nil ? "\(error)" : "the request failed"))
        }
        guard let http = response as? HTTPURLResponse else {
            return .failure(RESTError(.transport, method: method, url: url, model: model, message: "not an HTTP response"))
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return .response(RESTResponse(method: method, url: url, status: http.statusCode, headers: headers, body: data ?? Data()))
    }
}
