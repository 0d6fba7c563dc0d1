import Foundation
import Synchronization

/// Wakes the changes feed's long-poll waiters when the history may have grown: at once
/// after a write this server committed (``notify()``), and within the poll interval for
/// writes made elsewhere (another server process, a tool, app code on the same store) —
/// one head read per interval for all waiters together, and none while nobody waits.
///
/// Bounded: at most `limit` waiters at a time; one more is refused (the feed answers 503).
/// Thread safety: every field is behind `state`'s mutex; continuations resume outside it.
final class FeedSignal: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var nextWaiter: UInt64 = 0
        /// Each waiter and the cursor up to which it has read.
        var waiters: [UInt64: (continuation: CheckedContinuation<Void, Never>, known: HistoryCursor)] = [:]
        var polling = false
    }

    private let state = Mutex(State())
    /// The most waiters held at once.
    let limit: Int
    /// How often the head is read while anyone waits.
    let pollInterval: Duration

    init(limit: Int, pollInterval: Duration) {
        self.limit = limit
        self.pollInterval = pollInterval
    }

    /// Grows on every wake-up: a waiter that read the history at generation `g` waits for
    /// one after `g`, so a write committed between its read and its wait is not missed.
    var generation: UInt64 { state.withLock { $0.generation } }

    /// How many wait now.
    var waiting: Int { state.withLock { $0.waiters.count } }

    /// Wakes every waiter.
    func notify() {
        let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.generation &+= 1
            defer { state.waiters.removeAll() }
            return state.waiters.values.map(\.continuation)
        }
        for waiter in woken { waiter.resume() }
    }

    /// Waits until a wake-up after `generation`, `timeout`, or cancellation; polls
    /// `store`'s head meanwhile (shared with the other waiters), waking when it passes
    /// `known`, the cursor the caller has read up to.
    ///
    /// - Throws: ``ResourceError`` 503 `too_many_subscribers` when `limit` already wait.
    func wait(
        after generation: UInt64, known: HistoryCursor, timeout: Duration, polling store: any HistoryKeepingAdapter
    ) async throws {
        let id: UInt64 = try state.withLock { state throws(ResourceError) in
            guard state.waiters.count < limit else {
                var error = ResourceError(
                    status: 503, code: "too_many_subscribers",
                    message: "this server already holds \(limit) waiting feed requests; retry shortly")
                error.headers["Retry-After"] = "1"
                throw error
            }
            state.nextWaiter &+= 1
            return state.nextWaiter
        }
        let timer = Task {
            try? await Task.sleep(for: timeout)
            resume(id)
        }
        defer { timer.cancel() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let (resumeNow, startPoller) = state.withLock { state -> (Bool, Bool) in
                    if state.generation != generation || Task.isCancelled { return (true, false) }
                    state.waiters[id] = (continuation, known)
                    defer { state.polling = true }
                    return (false, !state.polling)
                }
                if resumeNow { continuation.resume() }
                if startPoller { Task { await poll(store) } }
            }
        } onCancel: {
            resume(id)
        }
    }

    private func resume(_ id: UInt64) {
        state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume()
    }

    /// Reads the head every interval while anyone waits; wakes them all when it passed
    /// what one of them has read (they read again; those with nothing new wait again).
    private func poll(_ store: any HistoryKeepingAdapter) async {
        while true {
            try? await Task.sleep(for: pollInterval)
            let head = try? await store.historyHead()
            let (behind, stop) = state.withLock { state -> (Bool, Bool) in
                if state.waiters.isEmpty {
                    state.polling = false
                    return (false, true)
                }
                return (head.map { head in state.waiters.values.contains { $0.known < head } } ?? false, false)
            }
            if behind { notify() }
            if stop { return }
        }
    }
}
