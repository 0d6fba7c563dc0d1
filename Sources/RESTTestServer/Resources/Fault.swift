import Foundation

/// A failure the test server injects in place of (or before) handling a request.
public enum Fault: Sendable, Equatable {
    /// Responds with this status and a JSON error body, with a `Retry-After` header when
    /// given (seconds, or an HTTP date).
    case status(Int, retryAfter: String? = nil)
    /// Waits this long, then handles the request normally.
    case delay(Duration)
    /// Responds 200 with a JSON content type and a body that is not JSON.
    case malformedJSON
    /// Responds 200 with `text/html` and an HTML body.
    case wrongContentType
    /// Sends headers announcing the full body, part of the body, then closes.
    case dropConnectionMidBody
    /// Closes the connection without responding.
    case closeWithoutResponse
}

/// An injected fault waiting for a matching request.
struct PendingFault {
    let fault: Fault
    let method: String?
    let pathPrefix: String?
    var remaining: Int

    func matches(_ request: HTTPRequest) -> Bool {
        (method == nil || method == request.method) && (pathPrefix.map { request.path.hasPrefix($0) } ?? true)
    }

    /// The response that stands in for handling, or nil to handle normally after `delay`.
    func response() -> HTTPResponse? {
        switch fault {
        case .status(let status, let retryAfter):
            return .json(
                status, #"{"error":"injected \#(status)"}"#, headers: retryAfter.map { [("Retry-After", $0)] } ?? [])
        case .delay: return nil
        case .malformedJSON: return .json(200, #"{"id": 1, "name": "trunc"#)
        case .wrongContentType:
            return HTTPResponse(
                status: 200, headers: [("Content-Type", "text/html")], body: Data("<html><body>maintenance</body></html>".utf8))
        case .dropConnectionMidBody:
            var response = HTTPResponse.json(200, #"{"id": 1, "name": "a body that never arrives in full"}"#)
            response.delivery = .truncated(afterBytes: 10)
            return response
        case .closeWithoutResponse:
            var response = HTTPResponse(status: 200)
            response.delivery = .closeWithoutResponse
            return response
        }
    }
}
