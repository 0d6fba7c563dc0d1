import ModelCore

/// Runs `body` — and the tasks it starts with the executor it is given — on a thread of
/// its own instead of the cooperative pool. For tests that count requests in flight or
/// time a cancellation: with two cores, the synchronous tests Swift Testing runs on the
/// pool beside them can hold both of its threads for many seconds.
func offThePool<R: Sendable>(_ body: (ThreadTaskExecutor) async throws -> R) async throws -> R {
    let executor = ThreadTaskExecutor(ownThreadNamed: "RESTAdapterTests.offThePool")
    defer { executor.finish() }
    return try await withTaskExecutorPreference(executor) { try await body(executor) }
}
