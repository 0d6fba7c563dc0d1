/// Per-request headers.
extension RESTAdapter {
    /// Headers for the requests this thread makes inside `body` (they win over the
    /// adapter's and the model's): an `Idempotency-Key` for one create, a trace id.
    ///
    /// ```swift
    /// try api.withHeaders(["Idempotency-Key": order.key]) { try order.save() }
    /// ```
    ///
    /// The headers follow the calling thread, so they apply to the synchronous API; an
    /// async call inside `body` runs its request elsewhere and does not see them.
    public func withHeaders<R>(_ headers: [String: String], _ body: () throws -> R) rethrows -> R {
        let previous = Self.requestHeaders.value
        Self.requestHeaders.value = HeaderBox(headers: (previous?.headers ?? [:]).merging(headers) { _, new in new })
        defer { Self.requestHeaders.value = previous }
        return try body()
    }

    /// The headers ``withHeaders(_:_:)`` set on this thread.
    static var currentHeaders: [String: String]? { requestHeaders.value?.headers }

    private static let requestHeaders = ThreadLocal<HeaderBox>()

    final class HeaderBox {
        let headers: [String: String]
        init(headers: [String: String]) { self.headers = headers }
    }
}
