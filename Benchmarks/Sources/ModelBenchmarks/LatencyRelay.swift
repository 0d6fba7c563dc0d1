import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP relay on loopback that adds a fixed delay each way, so a benchmark sees a network
/// round trip between client and server (the kernel's `netem` is not available here). Each
/// accepted connection is relayed to `target`; every chunk read in one direction is written
/// out `delay` after it arrived, in order, without waiting for earlier chunks' replies — so
/// pipelined traffic stays pipelined, as on a real link.
///
/// `@unchecked Sendable`: `listener` and `port` are set once in `init`; `stopped` is atomic;
/// connection threads share only their `Pipe`s, each guarded by its own condition.
final class LatencyRelay: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let stopped = Atomic<Bool>(false)

    init(targetPort: Int, delay: Duration) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw BenchmarkError("relay: socket() failed") }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 128) == 0 else { throw BenchmarkError("relay: cannot listen") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        self.listener = listener
        Thread { [self] in
            var one: Int32 = 1
            while !stopped.load(ordering: .relaxed) {
                let client = accept(listener, nil, nil)
                if client < 0 { continue }
                let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                var target = Self.loopback(port: targetPort)
                let connected = withUnsafePointer(to: &target) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
                }
                guard connected == 0 else {
                    close(client)
                    close(server)
                    continue
                }
                for fd in [client, server] { setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size)) }
                let ends = Ends(client, server)
                Self.relay(from: client, to: server, delay: delay, ends)
                Self.relay(from: server, to: client, delay: delay, ends)
            }
        }.start()
    }

    /// Stops accepting (connections already relayed end when their peers close).
    func stop() {
        stopped.store(true, ordering: .relaxed)
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// Writes to a socket whose peer may have closed without raising SIGPIPE (which would
    /// end the process): an error return instead.
    static func sendWithoutSignal(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        #if os(Linux)
            return send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
        #else
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
            return send(fd, bytes.baseAddress, bytes.count, 0)
        #endif
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// One direction: a reader thread queues each chunk with its due time; a writer thread
    /// sends it when due.
    private static func relay(from source: Int32, to destination: Int32, delay: Duration, _ ends: Ends) {
        let queue = ChunkQueue()
        Thread {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(source, &buffer, buffer.count)
                if count <= 0 { break }
                queue.put(Array(buffer[0..<count]), due: ContinuousClock.now + delay)
            }
            queue.put(nil, due: .now)
        }.start()
        Thread {
            while let (chunk, due) = queue.take() {
                guard let chunk else { break }
                let wait = due - ContinuousClock.now
                if wait > .zero { Thread.sleep(forTimeInterval: Double(wait.components.attoseconds) / 1e18 + Double(wait.components.seconds)) }
                var sent = 0
                while sent < chunk.count {
                    let n = chunk[sent...].withUnsafeBytes { LatencyRelay.sendWithoutSignal(destination, $0) }
                    if n <= 0 { break }
                    sent += n
                }
                if sent < chunk.count { break }
            }
            shutdown(destination, Int32(SHUT_WR))
            shutdown(source, Int32(SHUT_RD))
            ends.finished()
        }.start()
    }
}

/// The two sockets of one relayed connection, closed when both directions have ended.
private final class Ends: Sendable {
    let sockets: (Int32, Int32)
    let open = Atomic<Int>(2)

    init(_ a: Int32, _ b: Int32) { sockets = (a, b) }

    func finished() {
        if open.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
            close(sockets.0)
            close(sockets.1)
        }
    }
}

/// Chunks in arrival order with their due times; nil chunk: the source closed.
///
/// `@unchecked Sendable`: `items` is only touched holding `condition`.
private final class ChunkQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [([UInt8]?, ContinuousClock.Instant)] = []
    private var head = 0

    func put(_ chunk: [UInt8]?, due: ContinuousClock.Instant) {
        condition.lock()
        items.append((chunk, due))
        condition.signal()
        condition.unlock()
    }

    func take() -> ([UInt8]?, ContinuousClock.Instant)? {
        condition.lock()
        defer { condition.unlock() }
        while head == items.count { condition.wait() }
        let item = items[head]
        head += 1
        if head > 1_024 {
            items.removeFirst(head)
            head = 0
        }
        return item
    }
}
