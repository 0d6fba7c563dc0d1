/// What `destroy()` does to a parent's related records (`dependent:` in MotionModel).
///
/// `delete()` ignores relations; only `destroy()` (and `destroyAll()`) applies these.
public enum DeleteRule: String, Sendable, Hashable, CaseIterable {
    /// Destroy each child (its hooks run, its own relations' rules apply, recursively).
    case destroy
    /// Delete the children in one bulk operation: no hooks, no further cascade.
    case delete
    /// Set the children's foreign key to nil (the default).
    case nullify
    /// Refuse to destroy the parent while children exist (``ModelError`` `.restricted`).
    case restrict
}
