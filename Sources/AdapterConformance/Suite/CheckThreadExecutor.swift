import Foundation

/// A task executor with a thread of its own, for the async groups: their checks mix async
/// calls with synchronous ones that block (comparing the two APIs), and blocking must not
/// hold the cooperative pool — a server under test in the same process (Hummingbird)
/// answers on it. Jobs run on the thread until ``finish()``; later ones on a serial queue.
///
/// `@unchecked Sendable`: `jobs`, `finished` and `overflow` are only touched while holding
/// `condition`.
final class CheckThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false
    private var overflow: DispatchQueue?

    init() {
        let thread = Thread { [self] in loop() }
        thread.name = "AdapterConformance.checks"
        thread.stackSize = 8 << 20
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        if !finished {
            jobs.append(job)
            condition.signal()
            condition.unlock()
            return
        }
        let queue = overflow ?? DispatchQueue(label: "AdapterConformance.checks.after")
        overflow = queue
        condition.unlock()
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    /// Ends the thread once the jobs queued so far have run.
    func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    private func loop() {
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
