import Synchronization

/// The baseline a new record keeps beside its values (what `isDirty`, `changes` and
/// `revert()` compare with): its initial values, equal to the row its default factories
/// just made.
///
/// If the record kept that same row as its baseline, its first assignment would copy the
/// whole row (values and baseline would share one buffer). Most factories make the same
/// values for every record (`@Column var age = 0`), so the first new record's initial row
/// is kept here, and a later record whose initial row is equal to it takes it as its
/// baseline instead: the record's own row is then unshared, and assignments write in place.
/// Once a record's initial row differs (a factory such as `Date()` or a counter), every
/// later record keeps its own row as its baseline, as before, without comparing again.
/// Either way a record's baseline equals its initial values.
package final class InitialRows: Sendable {
    private enum State {
        case unset
        case shared([ModelValue])
        case varies
    }

    private let state = Mutex<State>(.unset)

    package init() {}

    /// The baseline for a new record whose freshly made initial values are `row`: an equal
    /// row already kept, or `row` itself.
    package func baseline(for row: [ModelValue]) -> [ModelValue] {
        switch state.withLock({ $0 }) {
        case .varies:
            return row
        case .shared(let first):
            if ModelValue.rowsEqual(first, row) { return first }
            state.withLock { $0 = .varies }
            return row
        case .unset:
            state.withLock { if case .unset = $0 { $0 = .shared(row) } }
            return row
        }
    }

    /// Whether `row` is the baseline every new record shares (the same storage).
    package func isShared(_ row: [ModelValue]) -> Bool {
        guard case .shared(let first) = state.withLock({ $0 }) else { return false }
        return ModelValue.sharesStorage(first, row)
    }
}
