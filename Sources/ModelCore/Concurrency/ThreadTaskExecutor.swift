import Foundation

/// A task executor whose jobs run on one thread — a thread of its own, or the thread that
/// calls ``run()`` — until ``finish()``; jobs that arrive after that run on a serial queue.
/// For work that mixes `await` with blocking calls and must not hold the cooperative pool:
/// the conformance suite's async groups, a test server's connection thread awaiting the
/// resource core.
///
/// `@unchecked Sendable`: `jobs`, `finished` and `overflow` are only touched while holding
/// `condition`.
package final class ThreadTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false
    private var overflow: DispatchQueue?
    private let name: String

    /// An executor whose jobs the caller of ``run()`` runs.
    package init(name: String) {
        self.name = name
    }

    /// An executor with a thread of its own, running jobs from now until ``finish()``.
    package init(ownThreadNamed name: String) {
        self.name = name
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.stackSize = 8 << 20
        thread.start()
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        if !finished {
            jobs.append(job)
            condition.signal()
            condition.unlock()
            return
        }
        let queue = overflow ?? DispatchQueue(label: name + ".after")
        overflow = queue
        condition.unlock()
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    /// Ends ``run()`` once the jobs queued so far have run.
    package func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    /// Runs jobs on the calling thread until ``finish()``.
    package func run() {
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
