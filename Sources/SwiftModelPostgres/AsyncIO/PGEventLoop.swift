import Foundation
import ModelSQL

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One small I/O thread per adapter that waits for the sockets of connections running
/// async statements to become readable or writable, and resumes the task waiting on each.
/// An async call suspends on a continuation here and holds no thread while the server
/// works.
///
/// On Linux the thread waits in `epoll_wait(2)` and a wait arms its socket itself
/// (`EPOLLONESHOT`, from the waiting task's thread): adding a wait costs one system call
/// and never wakes the I/O thread. Elsewhere it waits in `poll(2)` over every waiting
/// socket, and a pipe wakes it when a wait is added. The thread starts on the first wait
/// and ends with ``stop()`` (through the pipe). Cancelling a waiting task resumes it at
/// once with `CancellationError`; a readiness reported for a socket nobody waits on any
/// more is ignored, and a waiter woken early simply checks its socket and waits again.
final class PGEventLoop: Sendable {
    private struct Waiter {
        let fd: Int32
        let events: Int16
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var waiters: [UInt64: Waiter] = [:]
        /// Waits whose ids are handed out but not yet registered, and those of them
        /// cancelled meanwhile.
        var pending: Set<UInt64> = []
        var cancelled: Set<UInt64> = []
        var nextID: UInt64 = 0
        /// The waiter of each socket (one statement per connection at a time).
        var byFD: [Int32: UInt64] = [:]
        var started = false
        var stopped = false
    }

    private let state = Locked(State())
    /// The wake pipe: read end polled by the thread, write end written to wake it.
    let wakeRead: Int32
    private let wakeWrite: Int32
    /// The epoll instance (Linux), watching the wake pipe and the armed sockets.
    let poller: Int32

    init() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            throw PostgresError(.connection, message: "cannot create the async I/O wake pipe (errno \(errno))")
        }
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        wakeRead = fds[0]
        wakeWrite = fds[1]
        do {
            poller = try Self.makePoller(watching: wakeRead)
        } catch {
            close(wakeRead)
            close(wakeWrite)
            throw error
        }
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
        if poller >= 0 { close(poller) }
    }

    /// Suspends until `fd` is ready for `events` (`POLLIN`, `POLLOUT`), or has failed.
    /// `cancellable: false` waits on when the task is cancelled (a `COMMIT` whose outcome
    /// must be known).
    ///
    /// - Throws: `CancellationError` when the task is cancelled (and `cancellable`);
    ///   ``StoreError`` `.closed` after ``stop()``.
    func wait(for fd: Int32, events: Int16, cancellable: Bool = true) async throws {
        guard cancellable else { return try await withCheckedThrowingContinuation { register(fd, events, $0, id: nil) } }
        let id = state.withLock { s -> UInt64 in
            s.nextID += 1
            s.pending.insert(s.nextID)
            return s.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                register(fd, events, continuation, id: id)
            }
        } onCancel: {
            let waiter = state.withLock { s -> Waiter? in
                if let waiter = s.waiters.removeValue(forKey: id) {
                    if s.byFD[waiter.fd] == id { s.byFD[waiter.fd] = nil }
                    return waiter
                }
                if s.pending.contains(id) { s.cancelled.insert(id) }
                return nil
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Adds a waiter (under `id` when it was handed out for cancellation, else a new one)
    /// and wakes or starts the thread.
    private func register(_ fd: Int32, _ events: Int16, _ continuation: CheckedContinuation<Void, any Error>, id given: UInt64?) {
        let outcome = state.withLock { s -> (error: (any Error)?, start: Bool) in
            let id: UInt64
            if let given {
                id = given
                s.pending.remove(id)
                if s.cancelled.remove(id) != nil { return (CancellationError(), false) }
            } else {
                s.nextID += 1
                id = s.nextID
            }
            if s.stopped { return (StoreError.closed("PostgreSQL store"), false) }
            s.waiters[id] = Waiter(fd: fd, events: events, continuation: continuation)
            s.byFD[fd] = id
            defer { s.started = true }
            return (nil, !s.started)
        }
        if let error = outcome.error {
            continuation.resume(throwing: error)
            return
        }
        if outcome.start {
            let thread = Thread { [self] in run() }
            thread.name = "SwiftModel PostgreSQL I/O"
            thread.start()
        }
        arm(fd, events)
    }

    /// Resumes the waiters of the sockets in `ready`.
    func resume(_ ready: [Int32]) {
        let resumed = state.withLock { s in
            ready.compactMap { fd -> Waiter? in
                guard let id = s.byFD.removeValue(forKey: fd) else { return nil }
                return s.waiters.removeValue(forKey: id)
            }
        }
        for waiter in resumed { waiter.continuation.resume() }
    }

    /// The sockets waited on and what for, or nil once stopped.
    var snapshot: [(fd: Int32, events: Int16)]? {
        state.withLock { s in s.stopped ? nil : s.waiters.values.map { ($0.fd, $0.events) } }
    }

    var isStopped: Bool { state.withLock { $0.stopped } }

    /// Ends the thread; waits in progress and later ones throw ``StoreError`` `.closed`.
    func stop() {
        let waiters = state.withLock { s -> [Waiter] in
            s.stopped = true
            defer {
                s.waiters = [:]
                s.byFD = [:]
            }
            return Array(s.waiters.values)
        }
        for waiter in waiters { waiter.continuation.resume(throwing: StoreError.closed("PostgreSQL store")) }
        wake()
    }

    func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Empties the wake pipe.
    func drainWakes() {
        var drain = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &drain, drain.count) > 0 {}
    }
}
