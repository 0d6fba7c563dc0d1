import Foundation
import SwiftModelCLibPQ

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if os(Linux)
    /// The I/O thread on Linux: `epoll_wait` over the wake pipe and the sockets waits armed.
    extension PGEventLoop {
        static func makePoller(watching wakeRead: Int32) throws -> Int32 {
            let poller = epoll_create1(Int32(EPOLL_CLOEXEC))
            var event = epoll_event()
            event.events = EPOLLIN.rawValue
            event.data.fd = wakeRead
            guard poller >= 0, epoll_ctl(poller, EPOLL_CTL_ADD, wakeRead, &event) == 0 else {
                let code = errno
                if poller >= 0 { close(poller) }
                throw PostgresError(.connection, message: "cannot create the async I/O epoll instance (errno \(code))")
            }
            return poller
        }

        /// Arms `fd` once for `events`: re-armed when the socket was watched before, added
        /// when it is new (or a closed socket's number came back for a new connection).
        func arm(_ fd: Int32, _ events: Int16) {
            var event = epoll_event()
            event.events = UInt32(UInt16(bitPattern: events)) | EPOLLONESHOT.rawValue
            event.data.fd = fd
            if epoll_ctl(poller, EPOLL_CTL_MOD, fd, &event) == 0 { return }
            if errno == ENOENT, epoll_ctl(poller, EPOLL_CTL_ADD, fd, &event) == 0 { return }
            // Not watchable (closed meanwhile): the waiter wakes now and finds the socket's
            // state through libpq.
            resume([fd])
        }

        /// The thread: wait for ready sockets and resume their waiters, until stopped.
        func run() {
            var events = [epoll_event](repeating: epoll_event(), count: 64)
            while true {
                let count = epoll_wait(poller, &events, Int32(events.count), -1)
                if count < 0 {
                    if errno == EINTR { continue }
                    return
                }
                var ready: [Int32] = []
                ready.reserveCapacity(Int(count))
                var woken = false
                for k in 0..<Int(count) {
                    let fd = events[k].data.fd
                    if fd == wakeRead { woken = true } else { ready.append(fd) }
                }
                if woken {
                    drainWakes()
                    if isStopped { return }
                }
                if !ready.isEmpty { resume(ready) }
            }
        }
    }
#else
    /// The I/O thread elsewhere: `poll` over the wake pipe and every waiting socket, woken
    /// through the pipe when a wait is added.
    extension PGEventLoop {
        static func makePoller(watching wakeRead: Int32) throws -> Int32 { -1 }

        func arm(_ fd: Int32, _ events: Int16) { wake() }

        func run() {
            while true {
                guard let snapshot else { return }
                var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
                fds += snapshot.map { pollfd(fd: $0.fd, events: $0.events, revents: 0) }
                let ready = poll(&fds, nfds_t(fds.count), -1)
                if ready < 0 {
                    if errno == EINTR { continue }
                    return
                }
                if fds[0].revents != 0 { drainWakes() }
                let readyFDs = fds.dropFirst().filter { $0.revents != 0 }.map(\.fd)
                if !readyFDs.isEmpty { resume(readyFDs) }
            }
        }
    }
#endif
