import Foundation

/// How a store that has no date type of its own (SQLite) writes a `Date` column, so a model
/// can map a table that other tools wrote.
///
/// | storage | SQLite column | stored value | round trip |
/// | --- | --- | --- | --- |
/// | ``secondsSinceReferenceDate`` (default) | `REAL` | seconds since 2001-01-01 | exact |
/// | ``secondsSince1970`` | `REAL` | Unix seconds | exact to about a microsecond |
/// | ``millisecondsSince1970`` | `INTEGER` | Unix milliseconds | to the millisecond |
/// | ``text`` | `TEXT` | `2012-04-23 18:25:43.511` (UTC) | to the millisecond |
///
/// Choose per column with ``ColumnOptions/dateStorage(_:)``, or for a whole store with the
/// adapter's configuration (`SQLiteConfiguration.dateStorage`). Queries bind dates in the
/// column's storage, so comparisons and ordering work in SQL. Reading accepts any of the
/// forms (text in any ISO 8601 form the casting rules accept); writing uses the declared one.
public struct DateStorage: Sendable, Hashable, CustomStringConvertible {
    package enum Kind: Int, Sendable, Hashable, CaseIterable {
        case secondsSinceReferenceDate, secondsSince1970, millisecondsSince1970, text
    }

    package let kind: Kind
    package init(_ kind: Kind) { self.kind = kind }

    /// `REAL` seconds since 2001-01-01T00:00:00Z: SwiftModel's default, exact.
    public static let secondsSinceReferenceDate = DateStorage(.secondsSinceReferenceDate)
    /// `REAL` Unix seconds (what `strftime('%s')`-style tools and many apps write).
    public static let secondsSince1970 = DateStorage(.secondsSince1970)
    /// `INTEGER` Unix milliseconds (JavaScript's `Date.now()`).
    public static let millisecondsSince1970 = DateStorage(.millisecondsSince1970)
    /// `TEXT` `yyyy-MM-dd HH:mm:ss.SSS` in UTC (what GRDB and SQLite's date functions
    /// write); sorts and compares correctly as text.
    public static let text = DateStorage(.text)

    public var description: String {
        switch kind {
        case .secondsSinceReferenceDate: "secondsSinceReferenceDate"
        case .secondsSince1970: "secondsSince1970"
        case .millisecondsSince1970: "millisecondsSince1970"
        case .text: "text"
        }
    }

    /// The value written for `date`.
    package func stored(_ date: Date) -> ModelValue {
        switch kind {
        case .secondsSinceReferenceDate: .double(date.timeIntervalSinceReferenceDate)
        case .secondsSince1970: .double(date.timeIntervalSince1970)
        case .millisecondsSince1970:
            // Dates are checked against ModelValue.dateRange before they reach a store, so
            // the milliseconds fit an Int64; clamp anyway rather than trap.
            .int(Int64(exactly: (date.timeIntervalSince1970 * 1000).rounded()) ?? 0)
        case .text: .string(DateCodec.sqlText(date))
        }
    }

    /// The date a column of this storage gives back for `date` (what a reload reads).
    package func roundTrip(_ date: Date) -> Date {
        switch stored(date) {
        case .double(let number): self.date(fromNumber: number)
        case .int(let number): self.date(fromNumber: Double(number))
        case .string(let text): DateCodec.parse(text) ?? date
        default: date
        }
    }

    /// The date a stored number means.
    package func date(fromNumber number: Double) -> Date {
        switch kind {
        case .secondsSinceReferenceDate: Date(timeIntervalSinceReferenceDate: number)
        case .secondsSince1970, .text: Date(timeIntervalSince1970: number)
        case .millisecondsSince1970: Date(timeIntervalSince1970: number / 1000)
        }
    }
}

extension ColumnOptions {
    /// Stores this `Date` column as `storage` (see ``DateStorage``), overriding the store's
    /// default. Only for `Date` columns; one storage per column.
    ///
    /// ```swift
    /// final class Visit: Model {
    ///     @Column("created_at", options: .dateStorage(.secondsSince1970)) var created: Date?
    ///     init() {}
    /// }
    /// ```
    public static func dateStorage(_ storage: DateStorage) -> ColumnOptions {
        ColumnOptions(rawValue: 1 << (dateStorageShift + storage.kind.rawValue))
    }

    static let dateStorageShift = 8

    /// The date storages these options name (more than one is a schema error).
    package var dateStorages: [DateStorage] {
        DateStorage.Kind.allCases.filter { rawValue & (1 << (Self.dateStorageShift + $0.rawValue)) != 0 }.map(DateStorage.init)
    }
}

extension ColumnDefinition {
    /// The storage declared with ``ColumnOptions/dateStorage(_:)``, or nil (the store's
    /// default) — for `Date` columns.
    public var dateStorage: DateStorage? { options.dateStorages.first }
}
