import Foundation

/// A column with ``ColumnOptions/fieldTimestamps`` and the slots of its two stamps.
package struct FieldTimestampSlots: Sendable {
    package let column: Int
    package let setAt: Int
    package let changedAt: Int
}

/// Per-column timestamps: opt in with `@Column(options: .fieldTimestamps)`.
///
/// ```swift
/// final class Order: Model {
///     @Column(options: .fieldTimestamps) var status = "new"   // + status_set_at, status_changed_at
///     init() {}
/// }
///
/// order.status = "shipped"
/// try order.save()
/// try order.lastChanged(\.status)    // when status last became a different value
/// try order.lastSet(\.status)        // when status was last assigned (even the same value)
/// ```
///
/// The two stamps are stored columns (`<column>_set_at`, `<column>_changed_at`, optional
/// dates), stamped by `save()` with ``ModelClock``: on insert both; on update `set_at` when
/// the property was assigned since the last save and `changed_at` when its value differs
/// from the saved one. Batch updates (`updateAll`, `update(id:set:)`) do not stamp, as
/// they do not stamp `updated_at`. Models without the option pay one branch per write.
extension ModelProtocol {
    /// When the value of `keyPath` was last assigned and saved (even an equal value).
    ///
    /// - Throws: ``ModelError`` `.notAColumn` when the column has no field timestamps.
    public func lastSet<T>(_ keyPath: KeyPath<Self, T>) throws -> Date? {
        try fieldStamp(keyPath) { $0.setAt }
    }

    /// When the value of `keyPath` last changed to a different value and was saved.
    ///
    /// - Throws: ``ModelError`` `.notAColumn` when the column has no field timestamps.
    public func lastChanged<T>(_ keyPath: KeyPath<Self, T>) throws -> Date? {
        try fieldStamp(keyPath) { $0.changedAt }
    }

    private func fieldStamp<T>(_ keyPath: KeyPath<Self, T>, _ pick: (FieldTimestampSlots) -> Int) throws -> Date? {
        let slot = try self.slot(ofPartial: keyPath)
        let schema = recordSchema
        guard let stamps = schema.fieldTimestamps.first(where: { $0.column == slot }) else {
            throw ModelError(
                .notAColumn, model: schema.modelName,
                message: "\(schema.columns[slot].name) has no field timestamps (declare it with options: .fieldTimestamps)")
        }
        guard case .date(let date) = __values[pick(stamps)] else { return nil }
        return date
    }

    /// Stamps the field timestamps of the columns set or changed since the last save
    /// (before the write; part of what a failed write restores), at the precision `store`
    /// keeps them (``PersistenceAdapter/storedDate(_:column:of:)``).
    package func stampFieldTimestamps(_ schema: ModelSchema, isNew: Bool, store: any PersistenceAdapter) {
        guard schema.tracksFieldTimestamps else { return }
        let clock = ModelClock.now()
        func now(_ column: Int) -> ModelValue { .date(store.storedDate(clock, column: column, of: schema)) }
        let assigned = __extras?.setSlots ?? []
        for stamps in schema.fieldTimestamps {
            if isNew {
                // A caller-provided stamp (an import) is kept.
                if __values[stamps.setAt].isNull { _assign(now(stamps.setAt), at: stamps.setAt) }
                if __values[stamps.changedAt].isNull { _assign(now(stamps.changedAt), at: stamps.changedAt) }
                continue
            }
            // A change is also a set (so a change rolled back and saved again stamps both).
            let changed = __values[stamps.column] != _baselineValue(at: stamps.column)
            if changed || assigned.contains(stamps.column) { _assign(now(stamps.setAt), at: stamps.setAt) }
            if changed { _assign(now(stamps.changedAt), at: stamps.changedAt) }
        }
    }
}
