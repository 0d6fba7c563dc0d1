import Foundation
import ModelServer

/// Hands a request from a connection thread to the resource core and waits for its
/// answer. The request's task prefers a ``CallerThreadExecutor`` the connection thread
/// drains while it waits, so serving never needs a thread of the cooperative pool (which
/// the tests of a client may hold with blocking calls).
enum ResourceBridge {
    static func respond(_ resources: ModelResources, to request: HTTPRequest) -> HTTPResponse {
        let resourceRequest = ResourceRequest(
            method: request.method, target: request.target.isEmpty ? request.path : request.target,
            headers: request.headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, body: request.body)
        let answer = Locked<ResourceResponse?>(nil)
        let executor = CallerThreadExecutor()
        Task(executorPreference: executor) {
            let response = await resources.respond(to: resourceRequest)
            answer.withLock { $0 = response }
            executor.finish()
        }
        executor.run()
        let response = answer.withLock { $0 } ?? ResourceResponse(status: 500)
        return HTTPResponse(status: response.status, headers: response.headers, body: response.body)
    }
}

/// A task executor whose jobs run on the thread that calls ``run()``, until ``finish()``;
/// jobs that arrive after that run on a serial queue.
///
/// `@unchecked Sendable`: `jobs`, `finished` and `overflow` are only touched while holding
/// `condition`.
final class CallerThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false
    private var overflow: DispatchQueue?

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        if !finished {
            jobs.append(job)
            condition.signal()
            condition.unlock()
            return
        }
        let queue = overflow ?? DispatchQueue(label: "RESTTestServer.bridge.after")
        overflow = queue
        condition.unlock()
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    /// Ends ``run()`` once the jobs queued so far have run.
    func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    /// Runs jobs on this thread until ``finish()``.
    func run() {
        while true {
            condition.lock()
            while jobs.isEmpty && !finished { condition.wait() }
            guard !jobs.isEmpty else {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
