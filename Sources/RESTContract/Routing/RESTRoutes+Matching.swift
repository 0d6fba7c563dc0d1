extension RESTRoutes.Template {
    /// The placeholder values of a request path this template matches — each `:column`
    /// segment's text, percent-decoded, with its row index — or nil when the path has
    /// other literals or another number of segments. The inverse of ``path(_:)``.
    package func match(_ pathSegments: [Substring]) -> [(column: Int, text: String)]? {
        guard pathSegments.count == segments.count else { return nil }
        var captured: [(column: Int, text: String)] = []
        for (segment, part) in zip(segments, pathSegments) {
            guard let text = PercentDecoding.decode(part) else { return nil }
            switch segment {
            case .literal(let literal): if literal != text { return nil }
            case .value(let column, _): captured.append((column, text))
            }
        }
        return captured
    }
}
