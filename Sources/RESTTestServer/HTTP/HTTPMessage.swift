import Foundation

/// An HTTP/1.1 request as the test server received it.
public struct HTTPRequest: Sendable {
    /// `GET`, `POST`, …
    public var method: String
    /// The path, percent-decoded, without the query (`/teams/1`).
    public var path: String
    /// The query parameters in order, percent-decoded (`+` reads as a space).
    public var query: [(name: String, value: String)]
    /// Header fields by lowercased name (repeated fields joined with `, `).
    public var headers: [String: String]
    /// The body (empty when none was sent).
    public var body: Data
    /// The request target as it arrived, percent-encoded (`/teams/1?sort=name`).
    public var target = ""

    /// The first value of a query parameter.
    public func parameter(_ name: String) -> String? { query.first { $0.name == name }?.value }

    /// The value of a header field (case-insensitive).
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// An HTTP/1.1 response the test server sends, or a fault in place of one.
public struct HTTPResponse: Sendable {
    /// How the response is delivered.
    public enum Delivery: Sendable, Equatable {
        /// In full.
        case complete
        /// Headers announcing the full length, then only this many body bytes, then the
        /// connection closes (a connection dropped mid-body).
        case truncated(afterBytes: Int)
        /// No response at all: the connection closes.
        case closeWithoutResponse
    }

    /// The status code.
    public var status: Int
    /// Header fields (`Content-Length` is added when sending).
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: Data
    /// How it is delivered.
    public var delivery: Delivery = .complete

    /// A response.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON response.
    public static func json(_ status: Int, _ text: String, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [("Content-Type", "application/json; charset=utf-8")] + headers, body: Data(text.utf8))
    }

    /// The standard reason phrase of a status code.
    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 409: "Conflict"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}

/// Parses the head of an HTTP/1.1 request.
enum RequestParser {
    /// The request line and headers in `head` (without the blank line), or nil when malformed.
    static func parseHead(_ head: Data) -> (method: String, target: String, headers: [String: String])? {
        guard let text = String(data: head, encoding: .utf8) else { return nil }
        var lines = text.components(separatedBy: "\r\n")
        guard !lines.isEmpty else { return nil }
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: true)
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1.") else { return nil }
        var headers: [String: String] = [:]
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { $0 + ", " + value } ?? value
        }
        return (String(requestLine[0]), String(requestLine[1]), headers)
    }

    /// Splits a request target into its decoded path and query parameters.
    static func split(target: String) -> (path: String, query: [(name: String, value: String)]) {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = decode(String(parts[0]), plusIsSpace: false)
        var query: [(name: String, value: String)] = []
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") where !pair.isEmpty {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                query.append((decode(String(kv[0]), plusIsSpace: true), kv.count == 2 ? decode(String(kv[1]), plusIsSpace: true) : ""))
            }
        }
        return (path, query)
    }

    private static func decode(_ text: String, plusIsSpace: Bool) -> String {
        let spaced = plusIsSpace ? text.replacingOccurrences(of: "+", with: " ") : text
        return spaced.removingPercentEncoding ?? spaced
    }
}
