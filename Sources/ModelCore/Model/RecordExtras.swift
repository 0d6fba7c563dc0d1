/// Per-record state most records never need: field observers, record-transaction
/// snapshots, related records, and key-path probing. Allocated on first use.
@usableFromInline package final class RecordExtras {
    struct Observer {
        let token: Int
        let handler: (ModelValue, ModelValue) -> Void
    }

    var observers: [Int: [Observer]] = [:]
    var nextToken = 0
    /// Values at the start of each open `transaction {}` block, innermost last.
    var snapshots: [[ModelValue]] = []
    /// The values of the last successful validation since the last save or load
    /// (`revert()` returns to them); kept by ModelValidation.
    package var lastValid: [ModelValue]?
    /// ModelValidation's memo of the last validation run (values and errors).
    package var validationMemo: (any Sendable)?
    /// Parents, loaded children and staged children of this record's relations.
    package var related = RelatedRecords()
    /// Columns with field timestamps assigned since the last save (equal values too).
    package var setSlots: Set<Int> = []
    /// Slots read while resolving a key path to its column.
    @usableFromInline var probe: [Int]?

    init() {}

    func didChange(_ record: ModelObject, slot: Int, old: ModelValue, new: ModelValue) {
        guard let list = observers[slot] else { return }
        for observer in list { observer.handler(old, new) }
    }
}

extension ModelObject {
    package final var extras: RecordExtras {
        if let extras = __extras { return extras }
        let extras = RecordExtras()
        __extras = extras
        return extras
    }

    /// Assigns a whole row, notifying observers of each column that changes.
    package final func _assignAll(_ values: [ModelValue]) {
        _settleBaseline()
        guard let extras = __extras, !extras.observers.isEmpty else {
            if __membership != nil, !__registryTracked, values != __values { _noteRegistryChange() }
            if let registrar = __observation?.registrar, values != __values {
                registrar.willSet(self, keyPath: \ModelObject.__observed)
                __values = values
                registrar.didSet(self, keyPath: \ModelObject.__observed)
            } else {
                __values = values
            }
            return
        }
        for slot in values.indices where __values[slot] != values[slot] { _assign(values[slot], at: slot) }
    }
}
