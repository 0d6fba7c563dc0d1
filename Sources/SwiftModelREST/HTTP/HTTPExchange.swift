import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One call's way through attempts: credentials, the deadline, redirects, a token refresh
/// after a 401, retries with backoff. It decides; a driver — ``HTTPTransport/send(_:model:deadline:)``
/// blocking, or its async twin suspending — sends each attempt, waits and fetches tokens,
/// so the two cannot disagree on any rule.
struct HTTPExchange {
    /// What the driver does next.
    enum Step {
        /// The call's answer.
        case done(RESTResponse)
        /// Send the next attempt now (a redirect, a refreshed token).
        case again
        /// Wait, then send the next attempt (a retry).
        case wait(Duration)
        /// Ask the token provider for a new token to replace `rejected`: with one, call
        /// ``retry(with:)`` and send again; without, `response` (the 401) is the answer.
        case refresh(rejected: String?, response: RESTResponse)
    }

    /// The outcome of one attempt.
    enum Outcome {
        case response(RESTResponse)
        case failure(RESTError)
    }

    private let transport: HTTPTransport
    private let model: String?
    let deadline: ContinuousClock.Instant
    /// Whether requests still go to the base URL's origin (with credentials).
    private(set) var credentialed: Bool
    private var current: URLRequest
    private var token: String?
    private var redirects = 0
    private var attempt = 0
    private var refreshed = false

    /// A call of `request`; `token` is the provider's token when ``credentialed``.
    init(_ request: URLRequest, transport: HTTPTransport, model: String?, deadline: ContinuousClock.Instant?) {
        self.transport = transport
        self.model = model
        self.deadline = deadline ?? ContinuousClock.now + transport.configuration.deadline
        credentialed = transport.origin.contains(request.url)
        // A request for another origin (a next-page link RESTConfiguration.crossOrigin allows) goes bare.
        current = credentialed ? request : HTTPTransport.withoutCredentials(request)
    }

    /// The token to send while ``credentialed``.
    mutating func use(token: String?) { self.token = token }

    /// The next attempt and how long it may take; a `.timeout` error once the deadline passed.
    mutating func nextAttempt() throws -> (URLRequest, Duration) {
        attempt += 1
        let configuration = transport.configuration
        var request = current
        // Uncompressed bodies, unless a header of the caller's asks otherwise: a compressed
        // body inflates in the URL loading system before any limit applies (see Transfer).
        if request.value(forHTTPHeaderField: "Accept-Encoding") == nil { request.setValue("identity", forHTTPHeaderField: "Accept-Encoding") }
        if credentialed {
            if let token {
                let scheme = configuration.tokenProvider?.scheme ?? "Bearer"
                request.setValue(scheme.isEmpty ? token : "\(scheme) \(token)", forHTTPHeaderField: "Authorization")
            }
            if let configure = configuration.configureRequest { try configure(&request) }
        }
        let remaining = deadline - ContinuousClock.now
        guard remaining > .zero else {
            throw RESTError(
                .timeout, method: current.httpMethod ?? "GET", url: current.url, model: model,
                message: "the deadline of \(configuration.deadline) passed")
        }
        return (request, min(remaining, configuration.requestTimeout))
    }

    /// What follows an attempt's outcome; throws the error that ends the call.
    mutating func handle(_ outcome: Outcome) throws -> Step {
        let policy = transport.configuration.retry
        let method = current.httpMethod ?? "GET"
        let idempotent =
            ["GET", "HEAD", "PUT", "DELETE", "OPTIONS"].contains(method) || (method == "PATCH" && policy.retriesPATCH)
            || current.value(forHTTPHeaderField: "Idempotency-Key") != nil
        var wait: Duration?
        switch outcome {
        case .response(let response):
            if let next = try transport.redirect(response, from: current, count: &redirects, model: model) {
                current = next
                if credentialed && !transport.origin.contains(next.url) {
                    credentialed = false
                    token = nil
                }
                attempt -= 1
                return .again
            }
            if response.status == 401, credentialed, !refreshed, transport.configuration.tokenProvider != nil {
                refreshed = true
                return .refresh(rejected: token, response: response)
            }
            guard idempotent, attempt < policy.maxAttempts, policy.retryStatuses.contains(response.status) else {
                return .done(response)
            }
            wait = HTTPTransport.retryAfter(response.header("Retry-After"))
            if let asked = wait, ContinuousClock.now + asked > deadline { return .done(response) }  // the server asks for too long
        case .failure(let error):
            guard idempotent, attempt < policy.maxAttempts, error.kind == .transport || error.kind == .timeout else {
                throw deadlineNamed(error)
            }
        }
        let delay = wait ?? backoff()
        guard ContinuousClock.now + delay < deadline else {
            switch outcome {
            case .response(let response): return .done(response)
            case .failure(let error): throw deadlineNamed(error)
            }
        }
        return .wait(delay)
    }

    /// An attempt's timeout that the call's deadline cut short reports the deadline, not
    /// the slice that was left of it ("no response within 0.13 seconds").
    private func deadlineNamed(_ error: RESTError) -> RESTError {
        guard error.kind == .timeout, ContinuousClock.now >= deadline - .milliseconds(5) else { return error }
        var named = error
        let deadline = transport.configuration.deadline
        named.message = "the deadline of \(deadline) passed (\(attempt) attempt\(attempt == 1 ? "" : "s"))"
        return named
    }

    /// Sends the request again with the refreshed `token` (after ``Step/refresh(rejected:response:)``).
    mutating func retry(with fresh: String) {
        token = fresh
        attempt -= 1
    }

    /// Exponential backoff with jitter: base × 2^(attempt−1) × [0.5, 1), capped.
    private func backoff() -> Duration {
        let policy = transport.configuration.retry
        let base = HTTPTransport.seconds(policy.baseDelay) * pow(2, Double(min(attempt - 1, 20)))
        let capped = min(base, HTTPTransport.seconds(policy.maxDelay))
        return .milliseconds(Int64(capped * Double.random(in: 0.5..<1) * 1000))
    }
}
