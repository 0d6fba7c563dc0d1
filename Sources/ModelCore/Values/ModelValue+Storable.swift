import Foundation

/// The one rule every adapter and the serializers share for values at the edges of their
/// types (`Docs/Casting.md`, "Limits"):
///
/// - A `double` may be any finite number or ±infinity; **NaN is never stored** (it equals
///   nothing, SQL has no NaN, and JSON has no representation of it).
/// - A `date` is an instant between `0000-01-01T00:00:00Z` and `9999-12-31T23:59:59.999999Z`
///   (``ModelValue/dateRange``): the span ISO 8601 text with four-digit years can write and
///   read back. Dates outside it (including non-finite ones) are refused.
///
/// Casting refuses such values with a ``CastError``; saving a record or an `updateAll`
/// that holds one throws the same error before anything is written, on every adapter.
extension ModelValue {
    /// Seconds since 1970 of `0000-01-01T00:00:00Z`, the first representable date.
    @usableFromInline package static let firstStorableSecond: Double = -62_167_219_200
    /// Seconds since 1970 of `10000-01-01T00:00:00Z`, the first date past the range.
    @usableFromInline package static let endOfStorableSeconds: Double = 253_402_300_800

    /// The dates a `date` column can hold: `0000-01-01T00:00:00Z` up to (not including)
    /// `10000-01-01T00:00:00Z`.
    public static let dateRange: Range<Date> =
        Date(timeIntervalSince1970: firstStorableSecond)..<Date(timeIntervalSince1970: endOfStorableSeconds)

    /// Whether `date` lies in ``dateRange`` (false for NaN and infinite dates).
    @inlinable package static func isStorable(_ date: Date) -> Bool {
        let t = date.timeIntervalSince1970
        return t >= firstStorableSecond && t < endOfStorableSeconds
    }

    /// Why this value cannot be stored, or nil when it can (arrays and dictionaries are
    /// checked element by element).
    package var unstorableReason: String? {
        switch self {
        case .double(let d): return d.isNaN ? "NaN cannot be stored" : nil
        case .date(let d):
            return Self.isStorable(d) ? nil : "the date is outside 0000-01-01…9999-12-31 (ModelValue.dateRange)"
        case .array(let elements):
            for (k, element) in elements.enumerated() {
                if let reason = element.unstorableReason { return "element \(k): \(reason)" }
            }
            return nil
        case .dictionary(let entries):
            for (key, element) in entries {
                if let reason = element.unstorableReason { return "key \"\(key)\": \(reason)" }
            }
            return nil
        case .null, .bool, .int, .string, .data, .uuid: return nil
        }
    }
}

extension ModelSchema {
    /// Throws a ``CastError`` naming the model and column when `row` holds a value no
    /// adapter stores (NaN, a date outside ``ModelValue/dateRange``).
    ///
    /// - Complexity: O(columns); nested values only for array and dictionary columns.
    package func checkStorable(_ row: [ModelValue]) throws(CastError) {
        try checkStorable(row, in: row.indices)
    }

    /// ``checkStorable(_:)`` for the values of `row` at `slots` (indexes outside the row
    /// are skipped).
    package func checkStorable(_ row: [ModelValue], at slots: [Int]) throws(CastError) {
        try checkStorable(row, in: slots)
    }

    /// Throws for the first of `slots` (in their order) whose value in `row` cannot be
    /// stored. The values are read in place and a reason is made only for a value that
    /// has one: each save checks its row, and copying every value out (a retain and release
    /// per string) or making each one's optional reason cost more than the checks (an
    /// update of one column paid about 160 instructions).
    @inline(__always) private func checkStorable(_ row: [ModelValue], in slots: some Sequence<Int>) throws(CastError) {
        let columnCount = columns.count
        let problem = row.withUnsafeBufferPointer { values -> Int? in
            for k in slots where k >= 0 && k < values.count && k < columnCount {
                switch values[k] {
                case .null, .bool, .int, .string, .data, .uuid: continue
                case .double(let number): if number.isNaN { return k }
                case .date, .array, .dictionary: if values[k].unstorableReason != nil { return k }
                }
            }
            return nil
        }
        guard let k = problem, let reason = row[k].unstorableReason else { return }
        throw CastError(model: modelName, column: columns[k].name, value: row[k], target: columns[k].castTarget, reason: reason)
    }

    /// ``checkStorable(_:)`` for the values of a batch update, keyed by column index.
    package func checkStorable(_ values: [Int: ModelValue]) throws(CastError) {
        for (k, value) in values where k >= 0 && k < columns.count {
            if let reason = value.unstorableReason {
                throw CastError(model: modelName, column: columns[k].name, value: value, target: columns[k].castTarget, reason: reason)
            }
        }
    }
}
