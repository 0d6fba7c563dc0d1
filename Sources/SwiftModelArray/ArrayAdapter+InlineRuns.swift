extension ArrayAdapter: InlineRunningAdapter {
    /// Async reads and writes run inline when the adapter's lock is free (a try-lock: never waits),
    /// on the blocking pool when a transaction on another thread holds it.
    package func runInlineIfFree<R>(_ body: () throws -> sending R) rethrows -> sending R? {
        try lock.withLockIfAvailable(body)
    }
}

extension ArrayAdapter: AdmittingAdapter {
    /// Every call takes the one lock, so every async call is admitted by it.
    package func admission(reads: Bool) -> StoreLock? { lock }
}
