import Dispatch
import Synchronization

/// The serial executor of one async transaction: a dispatch queue of its own, whose jobs
/// run on the system's dispatch threads (never the cooperative pool), so the body's
/// synchronous store calls may block. Creating one creates no thread.
///
/// `@unchecked Sendable`: `queue` and `identity` are set once in `init`; dispatch queues
/// are thread-safe.
final class QueueExecutor: SerialExecutor, @unchecked Sendable {
    private static let key = DispatchSpecificKey<UInt>()
    private static let counter = Atomic<UInt>(0)
    private let queue: DispatchQueue
    private let identity: UInt

    init() {
        identity = Self.counter.add(1, ordering: .relaxed).newValue
        queue = DispatchQueue(label: "SwiftModel.transaction")
        queue.setSpecific(key: Self.key, value: identity)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    /// Whether the calling code runs on this executor's queue.
    var isCurrent: Bool { DispatchQueue.getSpecific(key: Self.key) == identity }

    func checkIsolated() {
        precondition(isCurrent, "not on the async transaction's executor")
    }
}
