import Foundation
import Hummingbird
import HummingbirdCore
import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What keeps a served API reachable when clients are idle, slow or many: a connection
/// that sends nothing is closed, a body that takes too long is refused, and open
/// connections are capped below the process's descriptor limit.
///
/// ```swift
/// let limits = ServerLimits()                      // 30 s idle, 30 s per body, a cap from `ulimit -n`
/// let router = Router()
/// router.addResources(resources, limits: limits)
/// let app = Application(router: router, server: limits.server,
///                       configuration: limits.applied(to: .init(address: .hostname("127.0.0.1", port: 8080))))
/// ```
///
/// Without them, Hummingbird keeps every connection until its client closes it: 300 idle
/// sockets at a 256-descriptor limit made a server unreachable for everyone.
public struct ServerLimits: Sendable {
    /// How long a connection may send nothing — between requests, or while a request's
    /// head is still arriving — before the server closes it (Hummingbird's `idleTimeout`).
    public var idleTimeout: Duration = .seconds(30)
    /// How long a request's body may take to arrive in full once the handler reads it; a
    /// slower one is answered `408 body_timeout` and its connection closed.
    public var bodyTimeout: Duration = .seconds(30)
    /// The most connections open at once; more wait in the listen backlog until one
    /// closes. The default is half the soft descriptor limit (`ulimit -n`), from 16 to
    /// 4,096, leaving the rest for the store, files and outgoing connections.
    public var maxConnections: Int = ServerLimits.defaultMaxConnections

    /// The defaults.
    public init() {}

    /// Half the soft `RLIMIT_NOFILE`, from 16 to 4,096 (512 when it cannot be read).
    public static var defaultMaxConnections: Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 512 }
        let soft = limit.rlim_cur == rlim_t.max ? 8_192 : Int(clamping: limit.rlim_cur)
        return min(max(soft / 2, 16), 4_096)
    }

    /// The HTTP/1.1 server with ``idleTimeout``.
    public var server: HTTPServerBuilder {
        let (seconds, attoseconds) = idleTimeout.components
        let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let idle: TimeAmount =
            nanoseconds.overflow ? .hours(24 * 365) : .nanoseconds(nanoseconds.partialValue + attoseconds / 1_000_000_000)
        return .http1(configuration: .init(idleTimeout: idle))
    }

    /// `configuration` with the connection cap.
    public func applied(to configuration: ApplicationConfiguration) -> ApplicationConfiguration {
        var configuration = configuration
        configuration.availableConnectionsDelegate = MaximumAvailableConnections(max(1, maxConnections))
        return configuration
    }
}

extension HummingbirdResources {
    /// `request`'s body collected up to `limit` bytes within `timeout`: nil when it is
    /// larger. A request whose head declares no body (no `Content-Length` or a zero one, no
    /// `Transfer-Encoding`: most `GET`s) is read without the deadline's race, which costs
    /// two child tasks.
    static func collect(_ request: Request, limit: Int, timeout: Duration) async throws -> Data? {
        let body = request.body
        @Sendable func read() async throws -> Data? {
            var data = Data()
            for try await buffer in body {
                guard data.count + buffer.readableBytes <= limit else { return nil }
                buffer.withUnsafeReadableBytes { data.append(contentsOf: $0) }
            }
            return data
        }
        let fields = request.headers
        let length = fields[.contentLength].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        if fields[.transferEncoding] == nil, length == nil || length == 0 { return try await read() }
        return try await withThrowingTaskGroup(of: Data?.self) { group in
            group.addTask { try await read() }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw BodyTimeout()
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { return Data() }
            return first
        }
    }

    /// The body did not arrive within ``ServerLimits/bodyTimeout``.
    struct BodyTimeout: Error {}
}
