import ModelCore
import Testing

/// Runs `body` — and the tasks it starts with the executor it is given — on a thread of
/// its own instead of the cooperative pool. For tests that count requests in flight or
/// time a cancellation: with two cores, the synchronous tests Swift Testing runs on the
/// pool beside them can hold both of its threads for many seconds.
package func offThePool<R: Sendable>(_ body: (ThreadTaskExecutor) async throws -> R) async throws -> R {
    let executor = ThreadTaskExecutor(ownThreadNamed: "SwiftModelTests.offThePool")
    defer { executor.finish() }
    return try await withTaskExecutorPreference(executor) { try await body(executor) }
}

/// Runs each test of a suite ``offThePool(_:)``. Async calls whose continuations wait for a
/// cooperative thread while long synchronous tests hold both of them (2 cores) stall
/// although their server answered at once: a REST call missed its 60 s deadline
/// (`asyncCallsRefreshTheTokenAfter401`), and 40 async PostgreSQL calls through PgBouncer
/// took 85 s and timed out waiting for a pooled connection under Thread Sanitizer
/// (`asyncCallsWorkThroughThePooler`: connections go back to the pool only when their
/// callers' continuations run).
package struct OffThePoolTrait: SuiteTrait, TestTrait, TestScoping {
    package var isRecursive: Bool { true }

    package init() {}

    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil else { return try await function() }
        try await offThePool { executor in try await OffThePool.$executor.withValue(executor) { try await function() } }
    }
}

extension Trait where Self == OffThePoolTrait {
    /// Each test of the suite runs on a thread of its own (``OffThePoolTrait``).
    package static var runsOffThePool: Self { Self() }
}

/// What a test running ``OffThePoolTrait/runsOffThePool`` needs for tasks that do not
/// inherit its executor.
package enum OffThePool {
    /// The thread the running test is on (nil outside the trait). Unstructured tasks do not
    /// inherit an executor preference: start them with `Task(executorPreference:
    /// OffThePool.executor)` to keep them off the cooperative pool too.
    @TaskLocal package static var executor: ThreadTaskExecutor?
}
