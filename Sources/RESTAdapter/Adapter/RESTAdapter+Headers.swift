/// Per-request headers.
extension RESTAdapter {
    /// Headers for the requests this thread makes inside `body` (they win over the
    /// adapter's and the model's): an `Idempotency-Key` for one create, a trace id.
    ///
    /// ```swift
    /// try api.withHeaders(["Idempotency-Key": order.key]) { try order.save() }
    /// ```
    ///
    /// The headers follow the calling thread, so they apply to the synchronous API; for
    /// async calls use ``withHeaders(_:_:)-(_,()async throws->R)``.
    public func withHeaders<R>(_ headers: [String: String], _ body: () throws -> R) rethrows -> R {
        let previous = Self.requestHeaders.value
        Self.requestHeaders.value = HeaderBox(headers: (previous?.headers ?? [:]).merging(headers) { _, new in new })
        defer { Self.requestHeaders.value = previous }
        return try body()
    }

    /// Headers for the requests the current task (and the tasks it starts) makes inside
    /// `body`, async: they win over the adapter's and the model's.
    ///
    /// ```swift
    /// try await api.withHeaders(["Idempotency-Key": order.key]) { try await order.save() }
    /// ```
    nonisolated(nonsending) public func withHeaders<R>(_ headers: [String: String], _ body: () async throws -> R) async rethrows -> R {
        let merged = (Self.taskHeaders ?? [:]).merging(headers) { _, new in new }
        return try await Self.$taskHeaders.withValue(merged) { try await body() }
    }

    /// The headers ``withHeaders(_:_:)-(_,()throws->R)`` set on this thread and the async
    /// form set for this task (the thread's win).
    static var currentHeaders: [String: String]? {
        guard let task = taskHeaders else { return requestHeaders.value?.headers }
        guard let thread = requestHeaders.value?.headers else { return task }
        return task.merging(thread) { _, threads in threads }
    }

    private static let requestHeaders = ThreadLocal<HeaderBox>()
    @TaskLocal private static var taskHeaders: [String: String]?

    final class HeaderBox {
        let headers: [String: String]
        init(headers: [String: String]) { self.headers = headers }
    }
}
