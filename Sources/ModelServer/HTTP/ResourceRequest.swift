import Foundation
import RESTContract

/// An HTTP request as the resource core sees it, whatever server received it: method,
/// path, query items, headers and body bytes.
///
/// ```swift
/// let request = ResourceRequest(method: "GET", target: "/todos?done=false&sort=-due")
/// let response = await resources.respond(to: request)
/// ```
public struct ResourceRequest: Sendable {
    /// The method in upper case (`GET`, `POST`, …).
    public var method: String
    /// The path, percent-encoded as it arrived (`/todos/5/items`), without the query.
    public var path: String
    /// The query items, decoded, in order.
    public var query: [URLQueryItem]
    /// The header fields in arrival order (names compared without case).
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: Data

    /// A request from its parts.
    public init(method: String, path: String, query: [URLQueryItem] = [], headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.method = method.uppercased()
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// A request from its request target (`/todos?done=false`): the path and the query
    /// items it carries (`+` reads as a space, as HTML forms and most servers read it).
    public init(method: String, target: String, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var items: [URLQueryItem] = []
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") where !pair.isEmpty {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                func decode(_ text: Substring) -> String {
                    PercentDecoding.decode(text, plusIsSpace: true) ?? String(text).replacing("+", with: " ")
                }
                items.append(URLQueryItem(name: decode(kv[0]), value: kv.count == 2 ? decode(kv[1]) : nil))
            }
        }
        self.init(method: method, path: String(parts[0]), query: items, headers: headers, body: body)
    }

    /// The value of the first header field named `name` (any case).
    public func header(_ name: String) -> String? {
        headers.first { PercentDecoding.sameName($0.name, name) }?.value
    }
}

/// An HTTP response the resource core produced: status, header fields and body.
public struct ResourceResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The header fields (`Content-Type`, `ETag`, `Location`, `Link`, `X-Total-Count`, …).
    public var headers: [(name: String, value: String)]
    /// The body (JSON, or empty).
    public var body: Data

    /// A response from its parts.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of the first header field named `name` (any case).
    public func header(_ name: String) -> String? {
        headers.first { PercentDecoding.sameName($0.name, name) }?.value
    }

    /// A JSON response.
    static func json(_ status: Int, _ value: ModelValue, headers: [(name: String, value: String)] = []) -> ResourceResponse {
        ResourceResponse(
            status: status, headers: [("Content-Type", "application/json; charset=utf-8")] + headers,
            body: Data(ModelJSON.serialize(value).utf8))
    }
}
