import ModelCore

/// A set of contexts that ``ModelContext/clearAll()`` treats as the whole process while the
/// task that made them runs inside ``ModelContext/withPrivateContexts(_:)``.
package final class PrivateContextGroup: Sendable {
    init() {}
}

extension ModelContext {
    @TaskLocal static var currentPrivateGroup: PrivateContextGroup?

    /// Runs `body` with a private group of contexts: ``clearAll()`` called inside it (and in
    /// the tasks it starts) clears only the contexts created inside it, never those of code
    /// running beside it. For tests, which run in parallel — like
    /// `ModelStore.withPrivateSettings`.
    package static func withPrivateContexts<R>(_ body: () throws -> R) rethrows -> R {
        try $currentPrivateGroup.withValue(PrivateContextGroup(), operation: body)
    }
}
