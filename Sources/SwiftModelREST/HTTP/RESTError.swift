import Foundation

/// A REST request that failed, or could not be made: the method, URL, status, the body
/// the server sent (decoded JSON, or text) and the transport error underneath.
///
/// ```
/// GET http://127.0.0.1:8080/teams/7: status 500: {"error": "database down"}
/// ```
public struct RESTError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Sendable, Hashable {
        /// The server answered with an error status (see ``status``).
        case status
        /// No response: the connection failed or dropped (see ``underlying``).
        case transport
        /// The deadline passed before a response arrived.
        case timeout
        /// The response is not what the adapter can read: not JSON, the wrong content
        /// type, a missing envelope key, an object where a list belongs, a row that does
        /// not fit the model.
        case invalidResponse
        /// The query has a part the resource's query encoder cannot express (see
        /// ``RESTQueryEncoder``); no request was sent.
        case unsupportedQuery
        /// A list had more pages than ``RESTPagination/maxPages``.
        case tooManyPages
        /// A route template needs a value the request does not have (a nested route's
        /// owner id), or the URL cannot be built.
        case route
        /// The operation has no HTTP form (a transaction's rollback).
        case unsupported
        /// A redirect or a next-page link pointed to another origin than the base URL's,
        /// and ``RESTConfiguration/crossOrigin`` refuses those; nothing was sent there.
        case crossOrigin
        /// A redirect could not be followed: no usable `Location`, or more than
        /// ``RESTConfiguration/maxRedirects``.
        case redirect
        /// The response body passed ``RESTConfiguration/maxResponseBytes``; the transfer
        /// was cancelled there.
        case responseTooLarge
        /// The server answered a list without honouring part of the query (a filter, the
        /// sort order or the limit): the rows were checked and refused rather than
        /// returned wrong. Declare what the server honours with
        /// ``RESTResource/querySupport``.
        case queryIgnored
        /// A list read fewer rows than the server declared it has (`X-Total-Count`, or a
        /// count in the body's envelope): pages were not followed or went missing. Never
        /// returned as a silent subset.
        case incompleteList
    }

    /// What went wrong.
    public var kind: Kind
    /// `GET`, `POST`, …; empty when no request was made.
    public var method: String
    /// The request's URL, when one was built.
    public var url: URL?
    /// The response status, when one arrived.
    public var status: Int?
    /// The response body decoded as JSON, when it is JSON.
    public var body: ModelValue?
    /// The response body as text, when it is not JSON (truncated to 1,000 characters).
    public var text: String?
    /// The transport error underneath (`URLError`), for ``Kind/transport``.
    public var underlying: (any Error & Sendable)?
    /// The model concerned, when known.
    public var model: String?
    /// Details.
    public var message: String

    /// Creates an error.
    public init(
        _ kind: Kind, method: String = "", url: URL? = nil, status: Int? = nil, body: ModelValue? = nil, text: String? = nil,
        underlying: (any Error & Sendable)? = nil, model: String? = nil, message: String
    ) {
        self.kind = kind
        self.method = method
        self.url = url
        self.status = status
        self.body = body
        self.text = text
        self.underlying = underlying
        self.model = model
        self.message = message
    }

    public var description: String {
        var out = model.map { $0 + ": " } ?? ""
        if !method.isEmpty || url != nil { out += "\(method) \(url?.absoluteString ?? "")".trimmingCharacters(in: .whitespaces) + ": " }
        if let status { out += "status \(status): " }
        out += message
        if let body { out += " — \(body)" } else if let text, !text.isEmpty { out += " — \(text)" }
        if let underlying { out += " (\(underlying))" }
        return out
    }
}

extension RESTError: QueryNotExpressible {
    /// The query part an encoder refused, for ``Kind/unsupportedQuery``.
    public var unexpressedPart: String? { kind == .unsupportedQuery ? message : nil }
}

extension RESTError: SwiftModelError {
    /// The model, when known.
    public var modelName: String? { model }
}

