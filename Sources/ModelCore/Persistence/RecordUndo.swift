/// What an open transaction keeps to put a record back if it rolls back, kept small:
/// the values right after the write (the record's own buffer, shared, so free while the
/// record is unchanged) plus the slots that differed before it, instead of two whole
/// copies of the row.
///
/// Restoring gives exactly the state captured before the write (``RecordState``): values,
/// baseline, persisted flag and home store.
package struct RecordUndo {
    /// A row kept as a difference from the written values when that is smaller.
    enum Row {
        case same
        case diff([(Int, ModelValue)])
        case full([ModelValue])

        /// The smaller of a full copy and the slots where `before` differs from `written`.
        init(_ before: [ModelValue], against written: [ModelValue]) {
            // The same buffer (the write changed nothing here): no comparisons.
            if before.withUnsafeBufferPointer({ $0.baseAddress }) == written.withUnsafeBufferPointer({ $0.baseAddress }),
                before.count == written.count
            {
                self = .same
                return
            }
            guard before.count == written.count else {
                self = .full(before)
                return
            }
            var diff: [(Int, ModelValue)] = []
            // A diff entry costs a little more than a row slot: keep a diff only while it
            // is clearly smaller than the row.
            let limit = before.count / 2
            for k in before.indices where before[k] != written[k] {
                if diff.count == limit {
                    self = .full(before)
                    return
                }
                diff.append((k, before[k]))
            }
            self = diff.isEmpty ? .same : .diff(diff)
        }

        func applied(to written: [ModelValue]) -> [ModelValue] {
            switch self {
            case .same: return written
            case .full(let row): return row
            case .diff(let diff):
                var row = written
                for (k, value) in diff { row[k] = value }
                return row
            }
        }
    }

    let record: ModelObject
    let written: [ModelValue]
    let values: Row
    let baseline: Row
    let isPersisted: Bool
    let home: (any PersistenceAdapter)?
    /// Where to restore the record: nil for the isolation ending the transaction, else the
    /// isolation the record was written from (see ``TransactionHandle``).
    let isolation: (any Actor)?

    /// The undo of a write that took `record` from `before` to its current state.
    package init(_ record: ModelObject, before: RecordState, isolation: (any Actor)? = nil) {
        self.isolation = isolation
        self.record = record
        written = record.__values
        values = Row(before.values, against: written)
        baseline = Row(before.baseline, against: written)
        isPersisted = before.isPersisted
        home = before.home
    }

    /// Puts the record back as it was before the write.
    func restore() {
        record.restore(
            RecordState(
                values: values.applied(to: written), baseline: baseline.applied(to: written), isPersisted: isPersisted, home: home))
    }
}
