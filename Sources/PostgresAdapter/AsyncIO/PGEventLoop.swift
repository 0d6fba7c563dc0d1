import Foundation
import ModelSQL

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One small I/O thread per adapter that waits, with `poll(2)`, for the sockets of
/// connections running async statements to become readable or writable, and resumes the
/// task waiting on each. An async call suspends on a continuation here and holds no thread
/// while the server works.
///
/// The thread starts on the first wait and ends with ``stop()``; a pipe wakes it when a
/// wait is added or the loop stops. Cancelling a waiting task resumes it at once with
/// `CancellationError`.
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
        var started = false
        var stopped = false
    }

    private let state = Locked(State())
    /// The wake pipe: read end polled by the thread, write end written to wake it.
    private let wakeRead: Int32
    private let wakeWrite: Int32

    init() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            throw PostgresError(.connection, message: "cannot create the async I/O wake pipe (errno \(errno))")
        }
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        wakeRead = fds[0]
        wakeWrite = fds[1]
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
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
                if let waiter = s.waiters.removeValue(forKey: id) { return waiter }
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
            defer { s.started = true }
            return (nil, !s.started)
        }
        if let error = outcome.error {
            continuation.resume(throwing: error)
        } else if outcome.start {
            let thread = Thread { [self] in run() }
            thread.name = "SwiftModel PostgreSQL I/O"
            thread.start()
        } else {
            wake()
        }
    }

    /// Ends the thread; waits in progress and later ones throw ``StoreError`` `.closed`.
    func stop() {
        let waiters = state.withLock { s -> [Waiter] in
            s.stopped = true
            defer { s.waiters = [:] }
            return Array(s.waiters.values)
        }
        for waiter in waiters { waiter.continuation.resume(throwing: StoreError.closed("PostgreSQL store")) }
        wake()
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// The thread: poll the wake pipe and every waiting socket, resume the ready ones.
    private func run() {
        var drain = [UInt8](repeating: 0, count: 64)
        while true {
            let snapshot = state.withLock { s -> [(UInt64, Int32, Int16)]? in
                s.stopped ? nil : s.waiters.map { ($0.key, $0.value.fd, $0.value.events) }
            }
            guard let snapshot else { return }
            var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            fds += snapshot.map { pollfd(fd: $0.1, events: $0.2, revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[0].revents != 0 { while read(wakeRead, &drain, drain.count) > 0 {} }
            let readyIDs = zip(snapshot, fds.dropFirst()).filter { $0.1.revents != 0 }.map(\.0.0)
            guard !readyIDs.isEmpty else { continue }
            let resumed = state.withLock { s in readyIDs.compactMap { s.waiters.removeValue(forKey: $0) } }
            for waiter in resumed { waiter.continuation.resume() }
        }
    }
}
