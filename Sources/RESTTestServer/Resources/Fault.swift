import Foundation

/// A failure the test server injects in place of (or before) handling a request.
public enum Fault: Sendable, Equatable {
    /// Responds with this status and a JSON error body, with a `Retry-After` header when
    /// given (seconds, or an HTTP date).
    case status(Int, retryAfter: String? = nil)
    /// Waits this long, then handles the request normally.
    case delay(Duration)
    /// Waits until the test calls ``FaultRelease/release()`` (or the server stops), then
    /// handles the request normally: a request held for exactly as long as a test needs,
    /// whatever the machine's load does to its timing.
    case hold(FaultRelease)
    /// Responds 200 with a JSON content type and a body that is not JSON.
    case malformedJSON
    /// Responds 200 with `text/html` and an HTML body.
    case wrongContentType
    /// Sends headers announcing the full body, part of the body, then closes.
    case dropConnectionMidBody
    /// Closes the connection without responding.
    case closeWithoutResponse
}

extension Fault {
    /// Waits as a `.delay` or `.hold` fault says; true when the server stopped meanwhile.
    func waitOut(_ stopping: FaultRelease) -> Bool {
        switch self {
        case .delay(let duration): return stopping.wait(duration)
        case .hold(let release):
            // Checks for a stop between short waits on the release.
            while !release.wait(.milliseconds(50)) {
                if stopping.wait(.zero) { return true }
            }
            return false
        default: return false
        }
    }
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
        case .delay, .hold: return nil
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

/// What lets requests held by ``Fault/hold(_:)`` go on. Equal only to itself.
///
/// `@unchecked Sendable`: `released` is only read and written while holding `condition`.
public final class FaultRelease: @unchecked Sendable, Equatable {
    private let condition = NSCondition()
    private var released = false

    /// A release not yet given.
    public init() {}

    /// Lets every request held on this release (and every later one) go on.
    public func release() {
        condition.lock()
        released = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits at most `duration` for the release; true once it was given.
    func wait(_ duration: Duration) -> Bool {
        let (seconds, attoseconds) = duration.components
        let deadline = Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) / 1e18)
        condition.lock()
        defer { condition.unlock() }
        while !released, condition.wait(until: deadline) {}
        return released
    }

    public static func == (a: FaultRelease, b: FaultRelease) -> Bool { a === b }
}
