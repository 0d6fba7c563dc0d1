import Foundation

/// Where tokens come from. The adapter asks for ``token()`` before each request, sends
/// `Authorization: <scheme> <token>` (``scheme``: `Bearer` by default, `Token` for Django
/// REST framework's TokenAuthentication), and after a `401` calls ``refresh(rejected:)``
/// once and retries with the new token.
///
/// Async calls use the `async` forms. By default they run the synchronous ones on the
/// blocking pool (a provider may block: read a keychain, fetch over the network), so a
/// task never blocks its thread; a provider that answers at once should implement them
/// to skip that hop, as ``StaticToken`` and ``RefreshingToken`` (for a cached token) do.
public protocol RESTTokenProvider: Sendable {
    /// The authentication scheme the token goes with (`"Bearer"`, `"Token"`, `"Basic"`); an
    /// empty scheme sends the token as the whole header value.
    var scheme: String { get }
    /// The token to send now; nil sends no `Authorization` header.
    func token() throws -> String?
    /// A new token after the server rejected `rejected`; nil gives up (the 401 is
    /// reported).
    func refresh(rejected: String?) throws -> String?
    /// ``token()`` for an async call; must not block the calling thread.
    func token() async throws -> String?
    /// ``refresh(rejected:)`` for an async call; must not block the calling thread.
    func refresh(rejected: String?) async throws -> String?
}

extension RESTTokenProvider {
    /// Default: `Bearer` (RFC 6750).
    public var scheme: String { "Bearer" }

    /// Default: no refresh.
    public func refresh(rejected: String?) throws -> String? { nil }

    /// Default: ``token()`` on a blocking-pool thread.
    public func token() async throws -> String? {
        try await BlockingPool.shared.run { [self] in try token() }
    }

    /// Default: ``refresh(rejected:)`` on a blocking-pool thread.
    public func refresh(rejected: String?) async throws -> String? {
        try await BlockingPool.shared.run { [self] in try refresh(rejected: rejected) }
    }
}

/// A fixed token.
public struct StaticToken: RESTTokenProvider {
    private let value: String
    public let scheme: String

    /// A provider that always sends `value`, as `<scheme> <value>`.
    public init(_ value: String, scheme: String = "Bearer") {
        self.value = value
        self.scheme = scheme
    }

    public func token() throws -> String? { value }

    /// The fixed token, at once.
    public func token() async throws -> String? { value }
}

/// A token fetched on first use and fetched again when the server rejects it; requests
/// on many threads share one fetch at a time.
public final class RefreshingToken: RESTTokenProvider {
    private let fetch: @Sendable () throws -> String
    /// The cached token (its lock is held only to read or write it, never during a fetch).
    private let cached = Locked<String?>(nil)
    /// Held during a fetch, so one runs at a time.
    private let fetching = NSLock()
    public let scheme: String

    /// A provider calling `fetch` (synchronously, on the requesting thread) when it needs
    /// a token, sent as `<scheme> <token>`.
    public init(scheme: String = "Bearer", fetch: @escaping @Sendable () throws -> String) {
        self.scheme = scheme
        self.fetch = fetch
    }

    public func token() throws -> String? {
        if let token = cached.withLock({ $0 }) { return token }
        return try fetching.withLock {
            // Another request fetched while this one waited: use its token.
            if let token = cached.withLock({ $0 }) { return token }
            let token = try fetch()
            cached.withLock { $0 = token }
            return token
        }
    }

    public func refresh(rejected: String?) throws -> String? {
        try fetching.withLock {
            // Another request refreshed already: use its token.
            if let token = cached.withLock({ $0 }), token != rejected { return token }
            let token = try fetch()
            cached.withLock { $0 = token }
            return token
        }
    }

    /// The cached token at once; a fetch runs on a thread of its own (fetches are rare, and
    /// this way a busy blocking pool never delays one).
    public func token() async throws -> String? {
        if let token = cached.withLock({ $0 }) { return token }
        return try await onOwnThread { try self.token() }
    }

    /// ``refresh(rejected:)`` on a thread of its own.
    public func refresh(rejected: String?) async throws -> String? {
        try await onOwnThread { try self.refresh(rejected: rejected) }
    }

    private func onOwnThread(_ body: @escaping @Sendable () throws -> String?) async throws -> String? {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }
}
