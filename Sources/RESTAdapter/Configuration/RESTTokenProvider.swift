import Foundation

/// Where bearer tokens come from. The adapter asks for ``token()`` before each request
/// and, after a `401`, calls ``refresh(rejected:)`` once and retries with the new token.
public protocol RESTTokenProvider: Sendable {
    /// The token to send now; nil sends no `Authorization` header.
    func token() throws -> String?
    /// A new token after the server rejected `rejected`; nil gives up (the 401 is
    /// reported).
    func refresh(rejected: String?) throws -> String?
}

extension RESTTokenProvider {
    /// Default: no refresh.
    public func refresh(rejected: String?) throws -> String? { nil }
}

/// A fixed token.
public struct StaticToken: RESTTokenProvider {
    private let value: String

    /// A provider that always sends `value`.
    public init(_ value: String) { self.value = value }

    public func token() throws -> String? { value }
}

/// A token fetched on first use and fetched again when the server rejects it; requests
/// on many threads share one fetch at a time.
public final class RefreshingToken: RESTTokenProvider {
    private let fetch: @Sendable () throws -> String
    /// The cached token; the lock also serialises fetches.
    private let cached = Locked<String?>(nil)

    /// A provider calling `fetch` (synchronously, on the requesting thread) when it needs
    /// a token.
    public init(fetch: @escaping @Sendable () throws -> String) { self.fetch = fetch }

    public func token() throws -> String? {
        try cached.withLock { token in
            if let token { return token }
            token = try fetch()
            return token
        }
    }

    public func refresh(rejected: String?) throws -> String? {
        try cached.withLock { token in
            // Another request refreshed already: use its token.
            if let token, token != rejected { return token }
            token = try fetch()
            return token
        }
    }
}
