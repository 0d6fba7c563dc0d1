import ModelCore

/// The context stack: a context is current inside ``ModelContext/run(_:)`` (a task-local
/// scope, nestable), and every load and save in the scope goes through it.
///
/// ```swift
/// try ModelContext.withTemporary { scratch in   // pushed
///     let todo = try Todo.find(1)!
///     todo.name = "draft"                        // never saved: discarded on pop
/// }
/// ```
extension ModelContext {
    /// The innermost context of the calling task (or thread), if any.
    ///
    /// Tasks started inside a scope (`Task {}`, task groups, `async let`) inherit task-local
    /// values, but not contexts: for them this is nil, so concurrent tasks never share one.
    public static var current: ModelContext? { RegistryScope.current as? ModelContext }

    /// The calling task's contexts, outermost first.
    public static var stack: [ModelContext] {
        var list: [ModelContext] = []
        var binding = RegistryScope.binding
        while let current = binding {
            if current.owner.isCaller, let context = current.registry as? ModelContext {
                list.append(context)
            }
            binding = current.outer
        }
        return list.reversed()
    }

    /// Runs `body` with this context current (pushed on the calling task's stack; popped
    /// when `body` returns or throws). Loads and saves in `body` go through the context.
    @discardableResult
    public func run<R>(_ body: () throws -> R) rethrows -> R {
        try RegistryScope.$binding.withValue(binding(), operation: body)
    }

    /// Runs async `body` with this context current for the calling task.
    @discardableResult
    public func run<R>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> R) async rethrows -> R {
        try await RegistryScope.$binding.withValue(binding(), operation: body, isolation: isolation)
    }

    /// Pushes a temporary context — a child of the current one, or a new root without
    /// one — runs `body` in it, then pops and discards it: what `body` did not save is
    /// dropped. A child's ``save()`` merges into the parent, a root's writes to the store.
    @discardableResult
    public static func withTemporary<R>(_ body: (ModelContext) throws -> R) rethrows -> R {
        let context = ModelContext(parent: current, name: "temporary")
        defer { context.clear() }
        return try context.run { try body(context) }
    }

    /// Async form of ``withTemporary(_:)``.
    @discardableResult
    public static func withTemporary<R>(
        isolation: isolated (any Actor)? = #isolation, _ body: (ModelContext) async throws -> R
    ) async rethrows -> R {
        let context = ModelContext(parent: current, name: "temporary")
        defer { context.clear() }
        return try await context.run { try await body(context) }
    }

    func binding() -> RegistryBinding {
        RegistryBinding(registry: self, owner: .current, outer: RegistryScope.binding)
    }
}
