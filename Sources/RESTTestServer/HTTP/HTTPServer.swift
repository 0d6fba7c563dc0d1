import Foundation
import ModelCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small HTTP/1.1 server on a loopback port, for tests: one thread accepts, one thread
/// per connection reads requests (with `Content-Length` bodies), calls the handler and
/// writes the response; connections are kept alive unless the client asks otherwise.
///
/// Thread safety: the handler is called concurrently from connection threads. The open
/// connections are tracked under `state`'s lock, so ``stop()`` can close them all.
public final class HTTPServer: Sendable {
    /// The handler of each request.
    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    /// Failure to start listening.
    public struct StartError: Error, CustomStringConvertible {
        /// What failed, with `errno`'s text.
        public let description: String
    }

    /// The port the server listens on (chosen by the system, so each server has its own).
    public let port: Int
    private let listener: Int32
    private let handler: Handler
    private let state = Locked(State())
    private let finished = DispatchGroup()

    private struct State {
        var connections: Set<Int32> = []
        var stopped = false
    }

    /// Starts listening on `127.0.0.1` on a free port.
    public init(handler: @escaping Handler) throws {
        self.handler = handler
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw StartError(description: "socket(): \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 128) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw StartError(description: "bind/listen on 127.0.0.1: \(reason)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: actual.sin_port))
        finished.enter()
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "HTTPServer.accept"
        thread.start()
    }

    deinit { stop() }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
    }

    /// Stops accepting, closes every open connection and waits for the server's threads.
    /// Idempotent.
    ///
    /// Connections are shut down holding the state lock, under which a connection's thread
    /// also closes its descriptor: a descriptor closed and reused meanwhile (by another
    /// server's listening socket, in a process running many) is never shut down by mistake.
    public func stop() {
        let stopping: Bool = state.withLock { state in
            if state.stopped { return false }
            state.stopped = true
            shutdown(listener, Int32(SHUT_RDWR))
            for fd in state.connections { shutdown(fd, Int32(SHUT_RDWR)) }
            return true
        }
        guard stopping else { return }
        finished.wait()
        close(listener)
    }

    private func acceptLoop() {
        defer { finished.leave() }
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                if errno == EINTR { continue }
                return
            }
            #if canImport(Darwin)
                var yes: Int32 = 1
                setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
            #endif
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            let accepted = state.withLock { state in
                if state.stopped { return false }
                state.connections.insert(fd)
                return true
            }
            guard accepted else {
                close(fd)
                return
            }
            finished.enter()
            let thread = Thread { [self] in
                serve(fd)
                state.withLock {
                    _ = $0.connections.remove(fd)
                    close(fd)  // under the lock: see stop()
                }
                finished.leave()
            }
            thread.name = "HTTPServer.conn"
            thread.start()
        }
    }

    /// Serves requests on one connection until it closes.
    private func serve(_ fd: Int32) {
        var reader = SocketReader(fd: fd)
        while let head = reader.readHead() {
            guard let (method, target, headers) = RequestParser.parseHead(head) else {
                send(fd, HTTPResponse.json(400, #"{"error":"malformed request head"}"#), keepAlive: false)
                return
            }
            let length = headers["content-length"].flatMap { Int($0) } ?? 0
            guard length >= 0, length <= 64 << 20, let body = reader.read(count: length) else { return }
            let (path, query) = RequestParser.split(target: target)
            var request = HTTPRequest(method: method, path: path, query: query, headers: headers, body: body)
            request.target = target
            let response = handler(request)
            let keepAlive = headers["connection"]?.lowercased() != "close"
            switch response.delivery {
            case .closeWithoutResponse: return
            case .truncated: 
                send(fd, response, keepAlive: false)
                return
            case .complete:
                guard send(fd, response, keepAlive: keepAlive), keepAlive else { return }
            }
        }
    }

    /// Writes `response`; false when the connection failed.
    @discardableResult
    private func send(_ fd: Int32, _ response: HTTPResponse, keepAlive: Bool) -> Bool {
        var head = "HTTP/1.1 \(response.status) \(HTTPResponse.reason(response.status))\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(response.body.count)\r\n"
        head += keepAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n"
        var bytes = Data(head.utf8)
        if case .truncated(let count) = response.delivery {
            bytes.append(response.body.prefix(max(0, min(count, response.body.count - 1))))
        } else {
            bytes.append(response.body)
        }
        return bytes.withUnsafeBytes { raw -> Bool in
            guard var pointer = raw.baseAddress else { return true }
            var remaining = raw.count
            while remaining > 0 {
                #if canImport(Glibc)
                    let sent = Glibc.send(fd, pointer, remaining, Int32(MSG_NOSIGNAL))
                #else
                    let sent = Darwin.send(fd, pointer, remaining, 0)
                #endif
                if sent < 0, errno == EINTR { continue }
                guard sent > 0 else { return false }
                pointer += sent
                remaining -= sent
            }
            return true
        }
    }
}

/// Buffered reads from a socket.
private struct SocketReader {
    let fd: Int32
    var buffer = Data()

    init(fd: Int32) { self.fd = fd }

    /// Reads more bytes into the buffer; false at end of stream or on error.
    private mutating func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            buffer.append(contentsOf: chunk[0..<count])
            return true
        }
    }

    /// The next request head (up to the blank line, not included), or nil at the end.
    mutating func readHead() -> Data? {
        let separator = Data("\r\n\r\n".utf8)
        while true {
            if let range = buffer.range(of: separator) {
                let head = buffer.subdata(in: buffer.startIndex..<range.lowerBound)
                buffer = buffer.subdata(in: range.upperBound..<buffer.endIndex)
                return head
            }
            guard buffer.count < 1 << 20, fill() else { return nil }
        }
    }

    /// Exactly `count` bytes, or nil when the stream ends first.
    mutating func read(count: Int) -> Data? {
        while buffer.count < count {
            guard fill() else { return nil }
        }
        let out = buffer.prefix(count)
        buffer = buffer.subdata(in: buffer.startIndex + count..<buffer.endIndex)
        return Data(out)
    }
}
