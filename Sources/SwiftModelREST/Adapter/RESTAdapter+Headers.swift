/// Per-request headers.
extension RESTAdapter {
    /// Headers for the requests made inside `body` — by this call's task or thread and the
    /// tasks it starts — (they win over the adapter's and the model's): an
    /// `Idempotency-Key` for one create, a trace id.
    ///
    /// ```swift
    /// try api.withHeaders(["Idempotency-Key": order.key]) { try order.save() }
    /// ```
    ///
    /// For an async body use ``withHeaders(_:_:)-(_,()async throws->R)``.
    public func withHeaders<R>(_ headers: [String: String], _ body: () throws -> R) rethrows -> R {
        let merged = (Self.taskHeaders ?? [:]).merging(headers) { _, new in new }
        return try Self.$taskHeaders.withValue(merged, operation: body)
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

    /// The headers the innermost ``withHeaders(_:_:)-(_,()throws->R)`` around the caller
    /// set (merged with the ones around it).
    static var currentHeaders: [String: String]? { taskHeaders }

    @TaskLocal private static var taskHeaders: [String: String]?
}
