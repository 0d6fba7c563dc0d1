/// What an open transaction level keeps to put a record back if it rolls back, kept small:
/// the values right after the write (the record's own buffer, shared, so free while the
/// record is unchanged) plus the slots that differed before it, instead of two whole
/// copies of the row.
///
/// Restoring gives exactly the state captured before the write (``RecordState``): values,
/// baseline, persisted flag and home store. The home store is kept only when it is not the
/// store written, which is the store of the transaction the undo belongs to and is passed
/// back to ``restore(_:writtenIn:)``: copying the record's home (an existential) cost about
/// 120 instructions an update or delete in a transaction, with its release at commit.
///
/// The level that made it keeps it, beside the record, in its ``UndoLog``, which does not
/// keep the record alive for long: a record dropped inside a long transaction has its undo
/// dropped with it, since there is nothing left to put back.
package struct RecordUndo {
    /// A row kept as a difference from the written values when that is smaller.
    enum Row {
        case same
        /// Only the id differed, and it was nil (a plain insert): no allocation.
        case nilID
        /// One slot differed (most updates): kept without an allocation.
        case one(Int, ModelValue)
        case diff([(Int, ModelValue)])
        case full([ModelValue])

        /// The smaller of a full copy and the slots where `before` differs from `written`.
        /// The rows are compared in place first, and a diff is made only when it is kept,
        /// with room for its entries at once (one slot needs none): a new record's baseline
        /// differs from its written row in most slots, and building a diff to drop it cost
        /// about 3,000 instructions a save.
        init(_ before: [ModelValue], against written: [ModelValue]) {
            // The same buffer (the write changed nothing here): no comparisons.
            if ModelValue.sharesStorage(before, written) {
                self = .same
                return
            }
            guard before.count == written.count else {
                self = .full(before)
                return
            }
            // A diff entry costs a little more than a row slot: keep a diff only while it
            // is clearly smaller than the row.
            guard let (count, slot) = ModelValue.differingSlots(before, written, limit: before.count / 2) else {
                self = .full(before)
                return
            }
            if count == 0 {
                self = .same
            } else if count == 1, slot == 0, before[0].isNull {
                self = .nilID
            } else if count == 1, slot >= 0 {
                self = .one(slot, before[slot])
            } else {
                self = .diff(ModelValue.differences(before, written, count: count))
            }
        }

        func applied(to written: [ModelValue]) -> [ModelValue] {
            switch self {
            case .same: return written
            case .nilID:
                var row = written
                if !row.isEmpty { row[0] = .null }
                return row
            case .full(let row): return row
            case .one(let k, let value):
                var row = written
                if k < row.count { row[k] = value }
                return row
            case .diff(let diff):
                var row = written
                for (k, value) in diff { row[k] = value }
                return row
            }
        }
    }

    let written: [ModelValue]
    let values: Row
    let baseline: Row
    let isPersisted: Bool
    /// Whether the home store before the write was the store written (the usual update or
    /// delete): ``home`` is then nil and the transaction's store is restored.
    let homeIsStore: Bool
    /// The home store before the write, unless ``homeIsStore``.
    let home: (any PersistenceAdapter)?
    /// Where to restore the record: nil for the isolation ending the transaction, else the
    /// isolation the record was written from (see ``TransactionHandle``).
    let isolation: (any Actor)?

    /// The undo of a write to `store` that took `record` from `before` to its current state.
    ///
    /// `before` is borrowed: an initializer takes its arguments owned, and the caller (a
    /// closure holding the state) copied the whole state in and destroyed the copy after,
    /// about 230 instructions a write inside a transaction.
    package init(
        _ record: ModelObject, before: borrowing RecordState, store: borrowing any PersistenceAdapter, isolation: (any Actor)? = nil
    ) {
        self.isolation = isolation
        written = record.__values
        switch before.values {
        case .row(let row): values = Row(row, against: written)
        case .handedWithID(let id):
            // The written row is the handed one with the id the store set.
            values = ModelValue.row(written, at: 0, equals: id) ? .same : id.isNull ? .nilID : .one(0, id)
        }
        baseline = Self.baseline(of: before, against: written, schema: record.__schema)
        isPersisted = before.isPersisted
        homeIsStore = before.home === store
        home = homeIsStore ? nil : before.home
    }

    /// `before`'s baseline as a row kept against `written`. A baseline held as one put-back
    /// slot over values the write did not change (an update of one column) is that slot,
    /// with no row made. A new record's baseline that new records share is kept whole: it
    /// holds no memory of its own, and comparing it with the written row cost about 370
    /// instructions an insert inside a transaction (the check that replaces it, about 130).
    @inline(__always) private static func baseline(of before: borrowing RecordState, against written: [ModelValue], schema: ModelSchema?)
        -> Row
    {
        let patch: BaselinePatch
        switch before.baseline {
        case .row(let row):
            if !before.isPersisted, let schema, schema.isSharedNewRecordRow(row) { return .full(row) }
            return Row(row, against: written)
        case .patch(let held): patch = held
        }
        var row: [ModelValue]
        switch before.values {
        case .row(let values):
            if ModelValue.sharesStorage(values, written), patch.slot < written.count { return .one(patch.slot, patch.old) }
            row = values
        case .handedWithID(let id):
            row = written
            if !row.isEmpty { row[0] = id }
        }
        if patch.slot < row.count { row[patch.slot] = patch.old }
        return Row(row, against: written)
    }

    /// Puts `record` back as it was before the write, made in a transaction on `store`.
    func restore(_ record: ModelObject, writtenIn store: any PersistenceAdapter) {
        record.restore(
            RecordState(
                values: .row(values.applied(to: written)), baseline: .row(baseline.applied(to: written)), isPersisted: isPersisted,
                home: homeIsStore ? store : home))
    }
}
