import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How a ``RESTAdapter`` talks to its server: headers, auth, deadlines, retries, query
/// encoding, envelopes, paging and hooks. Per-model settings live in ``RESTResource``.
///
/// ```swift
/// var configuration = RESTConfiguration()
/// configuration.headers["X-Client"] = "ios-4.2"
/// configuration.tokenProvider = RefreshingToken { try auth.freshToken() }
/// configuration.deadline = .seconds(10)
/// configuration.queryEncoder = ParseQueryEncoder()
/// let api = RESTAdapter(baseURL: URL(string: "https://api.example.com/v1")!, configuration: configuration)
/// ```
public struct RESTConfiguration: Sendable {
    /// Headers on every request (per-model ones in ``RESTResource/headers`` win).
    public var headers: [String: String] = ["Accept": "application/json"]
    /// The bearer token source, if the API needs one (see ``RESTTokenProvider``).
    public var tokenProvider: (any RESTTokenProvider)?
    /// How long one attempt may take. Enforced by the adapter itself (Foundation on Linux
    /// rounds request timeouts down to whole seconds).
    public var requestTimeout: Duration = .seconds(30)
    /// How long a call may take in all, retries and waits included.
    public var deadline: Duration = .seconds(60)
    /// When and how failed requests are retried.
    public var retry = RESTRetryPolicy()
    /// How queries become URL parameters (default: ``PlainQueryEncoder``).
    public var queryEncoder: any RESTQueryEncoder = PlainQueryEncoder()
    /// The key wrapping bodies on read and write (`{"data": …}`); nil for bare bodies.
    public var envelope: String?
    /// The key wrapping list responses only, when single objects come bare (Parse's
    /// `{"results": […]}`); ``envelope`` (or the resource's) when nil.
    public var listEnvelope: String?
    /// How lists spread over pages are followed.
    public var pagination = RESTPagination()
    /// How updates are sent.
    public var updateMethod: RESTUpdateMethod = .patch
    /// What to do with a redirect or a next-page link to another origin (scheme, host,
    /// port) than ``RESTAdapter/baseURL``'s. Credentials never leave the base URL's origin.
    public var crossOrigin: RESTCrossOriginPolicy = .refuse
    /// Redirects followed in one request before it fails (``RESTError/Kind/redirect``).
    public var maxRedirects = 5
    /// The longest request URL sent. A list query whose parameters would make a longer one
    /// (a condition on a 40 KB string) is refused before anything is sent, as
    /// ``RESTError/Kind/unsupportedQuery``: servers and proxies refuse long request lines
    /// (nginx and Apache at about 8 KB, Hummingbird's parser at 80 KB) with a bare 400 or 414.
    public var maxURLLength = 8_192
    /// The largest response body accepted, counted after decompression while it arrives:
    /// a larger one fails with ``RESTError/Kind/responseTooLarge`` as soon as it passes
    /// the limit. 32 MiB by default.
    public var maxResponseBytes = 32 << 20
    /// How many requests the adapter has in flight at once, from all threads and tasks; a
    /// request past it waits for one to finish (an async caller suspends, a synchronous one
    /// blocks). 64 by default. Async calls hold no thread while they wait, so this — not a
    /// thread pool — bounds an adapter's concurrency; the session's
    /// `httpMaximumConnectionsPerHost` (16 by default) bounds its connections.
    public var maxConcurrentRequests = 64
    /// The settings of models registered without a resource (``RESTAdapter/register(_:_:)``):
    /// a server's conventions that hold for every collection, such as
    /// ``RESTResource/notFoundStatuses`` or ``RESTResource/clearing``. Read-only columns a
    /// model does not have are ignored for it.
    public var defaultResource = RESTResource()
    /// Adjusts every request just before it is sent (sign it, add a trace id); throw to
    /// refuse it.
    public var configureRequest: (@Sendable (inout URLRequest) throws -> Void)?
    /// Turns a response into its JSON payload, or throws (the default checks the status
    /// and content type, parses JSON and unwraps the envelope): for APIs with their own
    /// error format or success flag.
    public var decodeResponse: (@Sendable (RESTResponse) throws -> ModelValue)?

    /// The defaults: JSON accepted, 30 s per attempt, 60 s per call, retries per
    /// ``RESTRetryPolicy``, plain query parameters, no envelope, `PATCH` updates.
    public init() {}
}

/// Where requests may go beyond the base URL's origin.
///
/// The adapter's credentials — the bearer token, ``RESTConfiguration/headers``, a
/// resource's headers and ``RESTConfiguration/configureRequest`` — are only ever sent to
/// the origin of ``RESTAdapter/baseURL``. This policy decides whether a redirect or a
/// `Link: rel="next"` pointing elsewhere is refused or followed without them.
public enum RESTCrossOriginPolicy: String, Sendable, Hashable {
    /// Fail with ``RESTError/Kind/crossOrigin`` (the default).
    case refuse
    /// Follow, sending only `Accept`, `Content-Type` and the body: for APIs that serve
    /// pages or files from a CDN on another host.
    case followWithoutCredentials
}

/// How updates are sent.
public enum RESTUpdateMethod: String, Sendable, Hashable {
    /// `PATCH` with the changed columns only.
    case patch
    /// `PUT` with every column.
    case put
}

/// How paged lists are followed, and how a list proves it is whole.
///
/// A page links the next one in a `Link: <…>; rel="next"` header, or — for lists in an
/// envelope object (``RESTConfiguration/listEnvelope``, as Django REST framework's
/// `{"count": 25, "next": "…?page=2", "previous": null, "results": […]}`) — under
/// ``nextKey`` in the body. A total the server declares (``totalHeader``, or ``countKey``
/// in the envelope) is checked against the rows read: fewer is
/// ``RESTError/Kind/incompleteList``, never a silent subset.
public struct RESTPagination: Sendable, Hashable {
    /// Follows next-page links (headers and body).
    public var followsLinks = true
    /// Refuses a list with more pages than this (``RESTError/Kind/tooManyPages``) rather
    /// than return part of it.
    public var maxPages = 100
    /// The key of the next page's URL in a list envelope (`"next"`); nil ignores the body.
    public var nextKey: String? = "next"
    /// The key of the list's total in a list envelope (`"count"`); nil ignores it.
    public var countKey: String? = "count"
    /// The response header declaring the list's total (`X-Total-Count`: every row the
    /// query matches, before its window); nil ignores it, for servers that count otherwise.
    public var totalHeader: String? = "X-Total-Count"

    /// The defaults: follow links in headers and bodies, at most 100 pages, totals from
    /// `X-Total-Count` and an envelope's `count`.
    public init(followsLinks: Bool = true, maxPages: Int = 100) {
        self.followsLinks = followsLinks
        self.maxPages = maxPages
    }
}

/// When failed requests are tried again.
///
/// Idempotent requests (`GET`, `PUT`, `DELETE`, and `PATCH`… see ``retriesPATCH``) are
/// retried after transport errors, timeouts of an attempt, and the statuses in
/// ``retryStatuses``; a `POST` only when it carries an `Idempotency-Key` header. Waits
/// grow exponentially from ``baseDelay`` (with jitter) up to ``maxDelay``, or follow the
/// server's `Retry-After`; no wait runs past the call's deadline.
public struct RESTRetryPolicy: Sendable, Hashable {
    /// Attempts in all (1 disables retries).
    public var maxAttempts = 3
    /// The first wait.
    public var baseDelay: Duration = .milliseconds(200)
    /// The longest wait.
    public var maxDelay: Duration = .seconds(10)
    /// Statuses worth retrying.
    public var retryStatuses: Set<Int> = [429, 502, 503, 504]
    /// Whether `PATCH` counts as idempotent (true for the adapter's own patches, which set
    /// absolute values).
    public var retriesPATCH = true

    /// The defaults: 3 attempts, 200 ms doubling up to 10 s, on 429, 502, 503 and 504.
    public init(maxAttempts: Int = 3, baseDelay: Duration = .milliseconds(200), maxDelay: Duration = .seconds(10)) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// No retries.
    public static let none = RESTRetryPolicy(maxAttempts: 1)
}

/// A response as received, for ``RESTConfiguration/decodeResponse`` and errors.
public struct RESTResponse: Sendable {
    /// The request's method.
    public let method: String
    /// The request's URL.
    public let url: URL
    /// The status code.
    public let status: Int
    /// Header fields by lowercased name.
    public let headers: [String: String]
    /// The body.
    public let body: Data

    /// The value of a header (case-insensitive).
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}
