import Dispatch
import Synchronization

/// The serial executor of one async transaction: a dispatch queue of its own, whose jobs
/// run on the system's dispatch threads (never the cooperative pool), so the body's
/// synchronous store calls may block. Creating one creates no thread.
///
/// Executors are reused (``take()``, ``recycle()``): disposing of a dispatch queue wakes a
/// dispatch thread, which cost about a third of a short async transaction. One is only
/// ever used by one open transaction at a time; a job a finished transaction left behind
/// may still run on it later, serially with the next one's, outside both.
///
/// `@unchecked Sendable`: `queue` and `identity` are set once in `init`; dispatch queues
/// are thread-safe.
final class QueueExecutor: SerialExecutor, @unchecked Sendable {
    private static let key = DispatchSpecificKey<UInt>()
    private static let counter = Atomic<UInt>(0)
    private static let idle = Locked<[QueueExecutor]>([])
    private static let idleLimit = 32

    /// An idle executor, or a new one.
    static func take() -> QueueExecutor {
        idle.withLock { $0.popLast() } ?? QueueExecutor()
    }

    /// Hands the executor back once its transaction has ended.
    func recycle() {
        Self.idle.withLock { idle in if idle.count < Self.idleLimit { idle.append(self) } }
    }

    private let queue: DispatchQueue
    private let identity: UInt

    private init() {
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
