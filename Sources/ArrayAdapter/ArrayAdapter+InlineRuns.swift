extension ArrayAdapter: InlineRunningAdapter {
    /// Async reads and writes run inline when the adapter's lock is free (a try-lock: never waits),
    /// on the blocking pool when a transaction on another thread holds it.
    package func runInlineIfFree<R>(_ body: () throws -> sending R) rethrows -> sending R? {
        try lock.withLockIfAvailable(body)
    }
}
