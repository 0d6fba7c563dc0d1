import Foundation
/// The PostgreSQL type OIDs the adapter reads and writes in binary (from `pg_type`, fixed
/// since PostgreSQL 8).
enum PGType {
    static let bool: UInt32 = 16
    static let bytea: UInt32 = 17
    static let char: UInt32 = 18
    static let name: UInt32 = 19
    static let int8: UInt32 = 20
    static let int2: UInt32 = 21
    static let int4: UInt32 = 23
    static let text: UInt32 = 25
    static let oid: UInt32 = 26
    static let json: UInt32 = 114
    static let float4: UInt32 = 700
    static let float8: UInt32 = 701
    static let unknown: UInt32 = 705
    static let bpchar: UInt32 = 1042
    static let varchar: UInt32 = 1043
    static let date: UInt32 = 1082
    static let timestamp: UInt32 = 1114
    static let timestamptz: UInt32 = 1184
    static let numeric: UInt32 = 1700
    static let uuid: UInt32 = 2950
    static let jsonb: UInt32 = 3802

    /// Whether values of this type are text on the wire (binary form = UTF-8).
    static func isText(_ oid: UInt32) -> Bool {
        oid == text || oid == varchar || oid == bpchar || oid == name || oid == unknown
    }

    /// Seconds from PostgreSQL's epoch (2000-01-01) to Foundation's (2001-01-01).
    static let epochOffset: Double = 31_622_400

    /// A date as a `timestamptz` column gives it back: rounded to the microsecond, exactly
    /// as the binary encoding rounds it and the decoding reads it.
    static func microsecondDate(_ date: Date) -> Date {
        let micros = ((date.timeIntervalSinceReferenceDate + epochOffset) * 1_000_000).rounded()
        guard let exact = Int64(exactly: micros) else { return date }
        return Date(timeIntervalSinceReferenceDate: Double(exact) / 1_000_000 - epochOffset)
    }
}
