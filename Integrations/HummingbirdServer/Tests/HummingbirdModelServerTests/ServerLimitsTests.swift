import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// A raw TCP connection to loopback, for clients that misbehave on purpose.
final class RawConnection {
    let descriptor: Int32

    init?(port: Int) {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            return nil
        }
    }

    deinit { close(descriptor) }

    func send(_ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { Glibc.send(descriptor, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL)) }
    }

    /// What the server sends until it closes the connection or `seconds` pass: nil when
    /// the connection is still open then.
    func readUntilClosed(within seconds: Int) -> String? {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count > 0 { received += buffer[0..<count]; continue }
            if count == 0 || errno == ECONNRESET { return String(decoding: received, as: UTF8.self) }
            return nil  // timed out: still open
        }
    }
}

/// Idle and slow clients are closed and connections are capped, so a server stays
/// reachable (TodoServer as a process, with short limits).
@Suite(.serialized) struct ServerLimitsTests {
    static let short = ["--idle-timeout", "0.5", "--body-timeout", "1"]

    @Test func anIdleConnectionIsClosed() throws {
        let server = try TodoServerProcess(arguments: Self.short)
        let idle = try #require(RawConnection(port: server.port))
        #expect(idle.readUntilClosed(within: 20) == "", "the server closed it without a word")
        let halfHead = try #require(RawConnection(port: server.port))
        halfHead.send("GET /todos HTTP/1.1\r\nHost: x\r\n")  // and never the rest
        #expect(halfHead.readUntilClosed(within: 20) != nil)
    }

    @Test func aBodyThatTricklesIsA408() throws {
        let server = try TodoServerProcess(arguments: Self.short)
        let slow = try #require(RawConnection(port: server.port))
        slow.send("POST /todos HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{")
        // A byte every 0.2 s keeps the connection from being idle; the body's deadline ends it.
        var answer: String?
        for _ in 0..<100 {
            slow.send(" ")
            usleep(200_000)
            var pending = pollfd(fd: slow.descriptor, events: Int16(POLLIN), revents: 0)
            if poll(&pending, 1, 0) > 0 {
                answer = slow.readUntilClosed(within: 10)
                break
            }
        }
        let text = try #require(answer, "the server waited for the body for 20 s")
        #expect(text.hasPrefix("HTTP/1.1 408") && text.contains("body_timeout"), "\(text)")
    }

    /// The attack the limits answer: more idle sockets than the server has descriptors.
    @Test func idleSocketsBeyondTheDescriptorLimitDoNotLockOthersOut() async throws {
        let server = try TodoServerProcess(arguments: Self.short, fileLimit: 64)
        var idle: [RawConnection] = []
        for _ in 0..<100 { if let connection = RawConnection(port: server.port) { idle.append(connection) } }
        #expect(idle.count == 100)
        // A well-behaved client still gets its answer: idle ones are closed, the cap keeps
        // descriptors for the store, and accepting waits instead of failing.
        var request = URLRequest(url: server.baseURL.appendingPathComponent("todos"))
        request.timeoutInterval = 30
        let (_, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        withExtendedLifetime(idle) {}
    }
}
