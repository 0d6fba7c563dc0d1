import ModelCore
import Testing

/// Runs `body` — and the tasks it starts with the executor it is given — on a thread of
/// its own instead of the cooperative pool. For tests that count requests in flight or
/// time a cancellation: with two cores, the synchronous tests Swift Testing runs on the
/// pool beside them can hold both of its threads for many seconds.
func offThePool<R: Sendable>(_ body: (ThreadTaskExecutor) async throws -> R) async throws -> R {
    let executor = ThreadTaskExecutor(ownThreadNamed: "RESTAdapterTests.offThePool")
    defer { executor.finish() }
    return try await withTaskExecutorPreference(executor) { try await body(executor) }
}

/// Runs each test of a suite ``offThePool(_:)``: async REST calls have a deadline (60 s by
/// default), and a test whose continuations wait for a cooperative thread while long
/// synchronous tests hold both of them (2 cores) can miss it although the server answered
/// at once (seen: `asyncCallsRefreshTheTokenAfter401`, "the deadline of 60.0 seconds
/// passed", beside 86-second fault tests).
struct OffThePoolTrait: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil else { return try await function() }
        try await offThePool { _ in try await function() }
    }
}

extension Trait where Self == OffThePoolTrait {
    /// Each test of the suite runs on a thread of its own (``OffThePoolTrait``).
    static var runsOffThePool: Self { Self() }
}
