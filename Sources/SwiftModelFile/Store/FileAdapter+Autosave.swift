import Foundation

/// Autosave bookkeeping: whether a save is scheduled, and the last failure.
struct AutosaveState {
    var scheduled = false
    var lastError: (any Error)?
}

extension FileAdapter {
    /// The error of the last autosave that failed, cleared by the next one that succeeds.
    public var lastAutosaveError: (any Error)? { autosave.withLock { $0.lastError } }

    /// Schedules one save after the coalescing delay, unless one is already scheduled (the
    /// scheduled save writes every commit made before it runs). Callers check ``hasFiles``
    /// under the lock they already hold.
    func scheduleAutosave() {
        guard case .afterCommit(let delay) = configuration.autosave else { return }
        let schedule = autosave.withLock { state in
            if state.scheduled { return false }
            state.scheduled = true
            return true
        }
        guard schedule else { return }
        let nanoseconds = delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000
        autosaveQueue.asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds))) { [weak self] in
            self?.runAutosave()
        }
    }

    private func runAutosave() {
        autosave.withLock { $0.scheduled = false }
        if memory.withLock({ memory.closed }) { return }  // close() wrote everything
        do {
            try flush()
            autosave.withLock { $0.lastError = nil }
        } catch {
            autosave.withLock { $0.lastError = error }
            Self.log.warning("autosave failed, will retry after the next commit: \(error)")
            configuration.onAutosaveError?(error)
        }
    }
}
