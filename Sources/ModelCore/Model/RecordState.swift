extension ModelObject {
    /// Puts back values, saved state and store as captured before a write.
    package final func restore(_ state: RecordState) {
        // The baseline is replaced below: drop it first so the values are not compared to
        // it or copied for it while they are put back.
        __baseline = []
        switch state.values {
        case .row(let values): _assignAll(values)
        case .handedWithID(let id): if !__values.isEmpty { _assign(id, at: 0) }
        }
        switch state.baseline {
        case .row(let row): __baselineRow = row
        case .patch(let patch): __baselinePatch = patch
        }
        __isPersisted = state.isPersisted
        __home = state.home
    }

    /// The record's values, saved state and store, to restore after a failed write.
    package final var state: RecordState {
        let baseline: RecordState.Baseline
        if let patch = __baselinePatch { baseline = .patch(patch) } else { baseline = .row(__baselineRow) }
        return RecordState(values: .row(__values), baseline: baseline, isPersisted: __isPersisted, home: __home)
    }
}

/// A record's persistence state, captured so a failed or rolled-back write can restore it.
package struct RecordState: Sendable {
    /// The values to put back.
    enum Values: Sendable {
        /// This row.
        case row([ModelValue])
        /// The row the record handed to the store's insert, which it still holds, with this
        /// id put back: the insert set only the id, and changes nothing when it throws.
        case handedWithID(ModelValue)
    }

    /// The baseline to put back.
    enum Baseline: Sendable {
        /// This row.
        case row([ModelValue])
        /// `values` with the patch's slot put back (see ``ModelObject/__baselinePatch``).
        case patch(BaselinePatch)
    }

    private(set) var values: Values
    let baseline: Baseline
    let isPersisted: Bool
    let home: (any PersistenceAdapter)?

    init(values: Values, baseline: Baseline, isPersisted: Bool, home: (any PersistenceAdapter)?) {
        self.values = values
        self.baseline = baseline
        self.isPersisted = isPersisted
        self.home = home
    }

    /// Stops holding the captured row when it is `handed` (the same storage: nothing changed
    /// it since), so the store's insert can set the id without copying it.
    mutating func releaseValues(sharing handed: [ModelValue], handedID: ModelValue) {
        guard case .row(let row) = values, ModelValue.sharesStorage(row, handed) else { return }
        values = .handedWithID(handedID)
    }

    /// Holds the handed row again (with `handedID` put back), after a store answered with a
    /// row that differs beyond the id.
    mutating func keepValues(_ handed: [ModelValue], handedID: ModelValue) {
        guard case .handedWithID = values else { return }
        var row = handed
        if !row.isEmpty { row[0] = handedID }
        values = .row(row)
    }
}

/// What a store answered to a write: the id it assigned (inserts) and the row as stored,
/// when it tells.
package struct StoreWrite: Sendable {
    package var id: ModelValue?
    package var stored: [ModelValue]?

    package init(id: ModelValue?, stored: [ModelValue]?) {
        self.id = id
        self.stored = stored
    }
}
