import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One attempt of a call: start the transfer, wait for its end (blocking or suspended),
/// and say what it ended with.
extension HTTPTransport {
    /// Sleeps, waking early (with `CancellationError`) when the task is cancelled.
    func sleep(_ duration: Duration) throws {
        let semaphore = DispatchSemaphore(value: 0)
        let cancellation = BlockingCancellation.current
        let token = cancellation?.onCancel { semaphore.signal() }
        defer { if let token { cancellation?.remove(token) } }
        if cancellation?.isCancelled == true { throw CancellationError() }
        _ = semaphore.wait(timeout: .now() + Self.seconds(duration))
        if cancellation?.isCancelled == true { throw CancellationError() }
    }

    /// Cancels `task` without waiting: FoundationNetworking's `cancel()` waits for the
    /// session's work queue, which a hostile response (100,000 headers, a body inflating
    /// from gzip) keeps busy for seconds — the call's deadline must not wait with it.
    static func cancel(_ task: URLSessionDataTask) {
        let task = UncheckedTask(task)
        DispatchQueue.global().async { task.task.cancel() }
    }

    /// A call after ``close()``: ``StoreError`` `.closed`.
    func refuseIfClosed(_ request: URLRequest) throws {
        if gate.isClosed { throw StoreError.closed("REST store for \(request.url?.host ?? "?")") }
    }

    /// Starts a transfer that holds a slot of the limiter (taken by the caller) and a place
    /// in the close gate until the session reports its end.
    private func start(_ request: URLRequest, _ onFinish: @escaping @Sendable (TransferResult) -> Void) throws -> URLSessionDataTask {
        do {
            try gate.enter { StoreError.closed("REST store for \(request.url?.host ?? "?")") }
        } catch {
            limiter.release()
            throw error
        }
        let transfer = Transfer(limit: configuration.maxResponseBytes) { [gate, limiter] result in
            gate.leave()
            limiter.release()
            onFinish(result)
        }
        return delegate.start(request, on: session, transfer)
    }

    /// One attempt, blocking the calling thread.
    func once(_ request: URLRequest, timeout: Duration, model: String?) throws -> HTTPExchange.Outcome {
        let cancellation = BlockingCancellation.current
        let box = Locked<TransferResult?>(nil)
        let done = DispatchSemaphore(value: 0)
        // Already cancelled: nothing is started, so the request is never sent.
        if cancellation?.isCancelled == true { throw CancellationError() }
        limiter.acquireBlocking()
        let task = try start(request) { result in
            box.withLock { $0 = result }
            done.signal()
        }
        var token: Int?
        if let cancellation {
            token = cancellation.onCancel { HTTPTransport.cancel(task) }
            if token == nil { HTTPTransport.cancel(task) }
        }
        defer { if let token { cancellation?.remove(token) } }
        if done.wait(timeout: .now() + Self.seconds(timeout)) == .timedOut {
            // Not waited for: its completion only fills `box`, which nobody reads any more.
            HTTPTransport.cancel(task)
            return timedOut(request, timeout, model: model)
        }
        if cancellation?.isCancelled == true { throw CancellationError() }
        return try outcome(box.withLock { $0 }, of: request, model: model)
    }

    /// One attempt, suspending the calling task until the transfer ends, the timeout
    /// passes (the transfer is then cancelled and not waited for) or the task is cancelled
    /// (the transfer is cancelled; `CancellationError`).
    func once(_ request: URLRequest, timeout: Duration, model: String?) async throws -> HTTPExchange.Outcome {
        try Task.checkCancellation()
        try await limiter.acquire()
        let waiting = PendingAttempt(timeouts)
        // The transfer may end before the continuation is installed: `end` keeps how, and
        // `install` resumes at once then.
        let task = try start(request) { result in waiting.end(.finished(result)) }
        let ending = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<PendingAttempt.Ending, any Error>) in
                waiting.install(continuation)
                waiting.started(task, timeout: Self.seconds(timeout))
            }
        } onCancel: {
            waiting.end(.cancelled)
        }
        switch ending {
        case .finished(let result): return try outcome(result, of: request, model: model)
        case .timedOut: return timedOut(request, timeout, model: model)
        case .cancelled: throw CancellationError()
        }
    }

    /// What a transport error says, from libcurl's text when Foundation kept it (on Linux
    /// an oversized header set is "Too large response headers: … > 307200").
    static func describe(_ error: URLError) -> String {
        let text =
            error.userInfo[NSLocalizedDescriptionKey] as? String
            ?? (error.userInfo[NSUnderlyingErrorKey] as? NSError)?.userInfo[NSLocalizedDescriptionKey] as? String
        return text.map { "\($0) (URLError \(error.code.rawValue))" } ?? "URLError \(error.code.rawValue)"
    }

    private func timedOut(_ request: URLRequest, _ timeout: Duration, model: String?) -> HTTPExchange.Outcome {
        .failure(RESTError(.timeout, method: request.httpMethod ?? "GET", url: request.url, model: model, message: "no response within \(timeout)"))
    }

    /// What a transfer's result means for the call.
    private func outcome(_ result: TransferResult?, of request: URLRequest, model: String?) throws -> HTTPExchange.Outcome {
        let method = request.httpMethod ?? "GET"
        let url = request.url ?? URL(fileURLWithPath: "/")
        switch result {
        case nil:
            return .failure(RESTError(.transport, method: method, url: url, model: model, message: "no result"))
        case .tooLarge(let bytes, let limit):
            throw RESTError(
                .responseTooLarge, method: method, url: url, model: model,
                message: "the response body passed \(limit) bytes (\(bytes) received or declared; RESTConfiguration.maxResponseBytes)")
        case .compressedTooLarge(let encoding, let declared, let limit):
            throw RESTError(
                .responseTooLarge, method: method, url: url, model: model,
                message: "the body is compressed (Content-Encoding: \(encoding), which the adapter did not ask for) and "
                    + (declared.map { "its \($0) bytes" } ?? "its unknown length") + " could inflate past \(limit) bytes "
                    + "(RESTConfiguration.maxResponseBytes); refused at its head")
        case .failure(let error):
            let urlError = error as? URLError
            return .failure(
                RESTError(
                    .transport, method: method, url: url, underlying: urlError.map { $0 as any Error & Sendable }, model: model,
                    message: urlError.map { "the request failed: " + Self.describe($0) } ?? "\(error)"))
        case .response(let http, let data):
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
            }
            return .response(RESTResponse(method: method, url: url, status: http.statusCode, headers: headers, body: data))
        }
    }
}

/// An async attempt in flight: the continuation to resume once — by the transfer's end,
/// its timer or the task's cancellation, whichever comes first — and what to cancel then.
///
/// `@unchecked Sendable`: `continuation`, `task` and `ending` are only read and written
/// while holding `lock`.
final class PendingAttempt: @unchecked Sendable {
    enum Ending: Sendable {
        case finished(TransferResult)
        case timedOut
        case cancelled
    }

    private let lock = NSLock()
    private var continuation: CheckedContinuation<Ending, any Error>?
    private var task: URLSessionDataTask?
    /// How it ended, once it has (a cancellation may come before the transfer starts).
    private var ending: Ending?
    private let timeouts: AttemptTimeouts

    init(_ timeouts: AttemptTimeouts) { self.timeouts = timeouts }

    /// The caller to resume; resumed now when the attempt already ended (cancelled first).
    func install(_ continuation: CheckedContinuation<Ending, any Error>) {
        lock.lock()
        guard let ending else {
            self.continuation = continuation
            lock.unlock()
            return
        }
        lock.unlock()
        continuation.resume(returning: ending)
    }

    /// The transfer started: cancel it at once if the attempt already ended, else watch
    /// its timeout.
    func started(_ task: URLSessionDataTask, timeout: Double) {
        lock.lock()
        if ending != nil {
            lock.unlock()
            HTTPTransport.cancel(task)
            return
        }
        self.task = task
        lock.unlock()
        timeouts.watch(self, until: .now() + timeout)
    }

    /// Ends the attempt once: resumes the caller, stops watching its timeout and, unless
    /// the transfer finished, cancels it.
    func end(_ how: Ending) {
        lock.lock()
        guard ending == nil else {
            lock.unlock()
            return
        }
        ending = how
        let (continuation, task) = (self.continuation, self.task)
        self.continuation = nil
        self.task = nil
        lock.unlock()
        if case .timedOut = how {} else { timeouts.forget(self) }
        if case .finished = how {} else if let task { HTTPTransport.cancel(task) }
        continuation?.resume(returning: how)
    }
}

/// The timeouts of a transport's async attempts in flight, checked by one timer that ticks
/// every ``tick`` while any is watched (and stops when none is): an attempt costs a
/// dictionary entry, not a timer of its own. An attempt times out at most one tick late.
///
/// `@unchecked Sendable`: `watched` and `timer` are only read and written while holding
/// `lock`.
final class AttemptTimeouts: @unchecked Sendable {
    static let tick: DispatchTimeInterval = .milliseconds(10)
    private let lock = NSLock()
    private var watched: [ObjectIdentifier: (deadline: DispatchTime, attempt: PendingAttempt)] = [:]
    private var timer: (any DispatchSourceTimer)?

    /// Ends `attempt` with `.timedOut` at `deadline` unless it is forgotten first.
    func watch(_ attempt: PendingAttempt, until deadline: DispatchTime) {
        lock.lock()
        watched[ObjectIdentifier(attempt)] = (deadline, attempt)
        guard timer == nil else {
            lock.unlock()
            return
        }
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + Self.tick, repeating: Self.tick, leeway: .milliseconds(2))
        timer.setEventHandler { [weak self] in self?.expire() }
        self.timer = timer
        lock.unlock()
        timer.resume()
    }

    func forget(_ attempt: PendingAttempt) {
        lock.withLock { _ = watched.removeValue(forKey: ObjectIdentifier(attempt)) }
    }

    /// One tick: ends the attempts past their deadline; stops the timer when none is left.
    private func expire() {
        let now = DispatchTime.now()
        lock.lock()
        var expired: [PendingAttempt] = []
        for (key, entry) in watched where entry.deadline <= now {
            expired.append(entry.attempt)
            watched.removeValue(forKey: key)
        }
        if watched.isEmpty {
            timer?.cancel()
            timer = nil
        }
        lock.unlock()
        for attempt in expired { attempt.end(.timedOut) }
    }
}

/// A data task handed to the queue that cancels it. `@unchecked Sendable`: `URLSessionTask`
/// is thread-safe (its state is guarded by the session), and the only call made through
/// it is `cancel()`.
struct UncheckedTask: @unchecked Sendable {
    let task: URLSessionDataTask
    init(_ task: URLSessionDataTask) { self.task = task }
}
