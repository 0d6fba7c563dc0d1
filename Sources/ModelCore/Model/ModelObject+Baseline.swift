/// One column's value as last saved or loaded, held apart from the row: while a saved
/// record has one changed column, its baseline is its current values with this slot put
/// back (see ``ModelObject/_store(_:at:)``).
package struct BaselinePatch: Sendable {
    package let slot: Int
    package let old: ModelValue
}

extension ModelObject {
    /// Values as last saved or loaded; for a new record, as first initialised. What
    /// `changes`, `isDirty`, `revert()` and a save's changed columns compare against.
    ///
    /// A loaded or saved record shares one buffer between its values and this baseline.
    /// Writing a column used to copy the whole row (about 900 instructions for eleven
    /// columns, and as much again to free the replaced baseline after the save); the first
    /// column written on a saved record now moves the baseline aside as one old value
    /// (``BaselinePatch``) and the row is changed in place. Reading the whole baseline while
    /// a patch is held makes a row; hot paths read ``__baselineID`` and
    /// ``_baselineValue(at:)`` instead.
    package final var __baseline: [ModelValue] {
        get {
            guard let patch = __baselinePatch else { return __baselineRow }
            var row = __values
            row[patch.slot] = patch.old
            return row
        }
        set {
            __baselinePatch = nil
            __baselineRow = newValue
        }
    }

    /// The id as last saved or loaded (`.null` before the schema is attached).
    package final var __baselineID: ModelValue {
        if let patch = __baselinePatch { return patch.slot == 0 ? patch.old : __values[0] }
        return __baselineRow.first ?? .null
    }

    /// One column of ``__baseline`` without making the row.
    @inline(__always) package final func _baselineValue(at slot: Int) -> ModelValue {
        if let patch = __baselinePatch { return patch.slot == slot ? patch.old : __values[slot] }
        return __baselineRow[slot]
    }

    /// Writes `value` at `slot`, keeping ``__baseline`` what it was: the first column
    /// written on a saved record whose row is its baseline's takes the old value aside so
    /// the row can be written in place (unless a store or a transaction's undo shares it
    /// too); a second column gives the baseline a row of its own again (the copy every
    /// write used to make). Every write of one column of ``__values`` goes through here;
    /// whole-row writes settle the baseline first (``_settleBaseline()``).
    @inline(__always) package final func _store(_ value: ModelValue, at slot: Int) {
        if let patch = __baselinePatch {
            if patch.slot != slot { _settleBaseline() }
        } else if __isPersisted, ModelValue.sharesStorage(__values, __baselineRow) {
            __baselinePatch = BaselinePatch(slot: slot, old: __values[slot])
            __baselineRow = []
        }
        __values[slot] = value
    }

    /// Gives the baseline a row of its own (before the values change other than through
    /// ``_store(_:at:)``).
    package final func _settleBaseline() {
        guard let patch = __baselinePatch else { return }
        var row = __values
        row[patch.slot] = patch.old
        __baselinePatch = nil
        __baselineRow = row
    }
}
