import Foundation

/// Bound values encoded for `PQexecPrepared`: one byte buffer with per-value offsets,
/// lengths and formats (binary, or text for `numeric` and types the adapter does not
/// know), converted to the types the server inferred for the statement's parameters.
struct PGParameters {
    private(set) var bytes: [UInt8] = []
    private(set) var offsets: [Int] = []
    private(set) var lengths: [Int32] = []
    private(set) var formats: [Int32] = []

    init(capacity: Int) {
        offsets.reserveCapacity(capacity)
        lengths.reserveCapacity(capacity)
        formats.reserveCapacity(capacity)
        bytes.reserveCapacity(capacity * 8)
    }

    var count: Int { lengths.count }

    /// Appends `value` as a parameter of type `oid`.
    ///
    /// - Throws: ``PostgresError`` `.mismatch` when the value cannot be sent as that type.
    mutating func append(_ value: ModelValue, as oid: UInt32) throws {
        offsets.append(bytes.count)
        switch (value, oid) {
        case (.null, _): return finish(length: -1, binary: true)
        case (.int(let i), PGType.int8): appendInteger(UInt64(bitPattern: i), width: 8)
        case (.double(let d), PGType.int8):
            // An integral double compared with or assigned to a bigint; a fraction is refused.
            guard d == d.rounded(), let i = Int64(exactly: d) else { throw mismatch(value, oid) }
            appendInteger(UInt64(bitPattern: i), width: 8)
        case (.int(let i), PGType.int4):
            guard let v = Int32(exactly: i) else { throw mismatch(value, oid) }
            appendInteger(UInt64(UInt32(bitPattern: v)), width: 4)
        case (.int(let i), PGType.int2):
            guard let v = Int16(exactly: i) else { throw mismatch(value, oid) }
            appendInteger(UInt64(UInt16(bitPattern: v)), width: 2)
        case (.bool(let b), PGType.int8): appendInteger(b ? 1 : 0, width: 8)
        case (.bool(let b), PGType.int4): appendInteger(b ? 1 : 0, width: 4)
        case (.bool(let b), PGType.float8): appendInteger((b ? 1.0 : 0.0).bitPattern, width: 8)
        case (.double(let d), PGType.float8): appendInteger(d.bitPattern, width: 8)
        case (.int(let i), PGType.float8): appendInteger(Double(i).bitPattern, width: 8)
        case (.double(let d), PGType.float4): appendInteger(UInt64(Float(d).bitPattern), width: 4)
        case (.int(let i), PGType.float4): appendInteger(UInt64(Float(i).bitPattern), width: 4)
        case (.bool(let b), PGType.bool): bytes.append(b ? 1 : 0)
        case (.int(let i), PGType.bool) where i == 0 || i == 1: bytes.append(UInt8(i))
        case (.data(let data), PGType.bytea): bytes.append(contentsOf: data)
        case (.uuid(let u), PGType.uuid): appendUUID(u)
        case (.string(let s), PGType.uuid):
            guard let u = UUIDText.uuid(s) else { throw mismatch(value, oid) }
            appendUUID(u)
        case (.date(let d), PGType.timestamptz), (.date(let d), PGType.timestamp):
            let micros = ((d.timeIntervalSinceReferenceDate + PGType.epochOffset) * 1_000_000).rounded()
            guard let v = Int64(exactly: micros) else { throw mismatch(value, oid) }
            appendInteger(UInt64(bitPattern: v), width: 8)
        case (.array, PGType.jsonb), (.dictionary, PGType.jsonb):
            bytes.append(1)
            bytes.append(contentsOf: ModelJSON.serializedBytes(value))
        case (.array, PGType.json), (.dictionary, PGType.json):
            bytes.append(contentsOf: ModelJSON.serializedBytes(value))
        case (.string(let s), _) where PGType.isText(oid) || oid == PGType.json:
            try appendText(s, value, oid)
        case (.uuid(let u), _) where PGType.isText(oid): bytes.append(contentsOf: u.uuidString.utf8)
        case (.string(let s), PGType.jsonb):
            // A JSON document given as text (raw SQL).
            bytes.append(1)
            try appendText(s, value, oid)
        default:
            // numeric, and types the adapter does not know: the value's text form, parsed
            // by the server with the type's own input function.
            guard let text = Self.textForm(value), !text.utf8.contains(0) else { throw mismatch(value, oid) }
            bytes.append(contentsOf: text.utf8)
            let length = Int32(clamping: bytes.count - offsets[offsets.count - 1])
            // libpq reads text-format values up to their NUL terminator, not by length.
            bytes.append(0)
            return finish(length: length, binary: false)
        }
        finish(length: Int32(clamping: bytes.count - offsets[offsets.count - 1]), binary: true)
    }

    private mutating func finish(length: Int32, binary: Bool) {
        lengths.append(length)
        formats.append(binary ? 1 : 0)
    }

    @inline(__always) private mutating func appendInteger(_ value: UInt64, width: Int) {
        var shift = (width - 1) * 8
        while shift >= 0 {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            shift -= 8
        }
    }

    private mutating func appendUUID(_ u: UUID) {
        withUnsafeBytes(of: u.uuid) { bytes.append(contentsOf: $0) }
    }

    private mutating func appendText(_ s: String, _ value: ModelValue, _ oid: UInt32) throws {
        // PostgreSQL text cannot hold NUL: refused before anything is sent.
        guard !s.utf8.contains(0) else {
            throw PostgresError(.invalidValue, message: "PostgreSQL text cannot hold a NUL character (\\u{0})")
        }
        bytes.append(contentsOf: s.utf8)
    }

    private func mismatch(_ value: ModelValue, _ oid: UInt32) -> PostgresError {
        PostgresError(.mismatch, message: "cannot send a \(value.kindName) value as PostgreSQL type \(PGTypeNames.name(oid))")
    }

    /// The text form a server input function parses, for values sent as text.
    static func textForm(_ value: ModelValue) -> String? {
        switch value {
        case .int(let i): String(i)
        case .double(let d): d.isFinite ? "\(d)" : (d.isNaN ? "NaN" : (d > 0 ? "Infinity" : "-Infinity"))
        case .bool(let b): b ? "true" : "false"
        case .string(let s): s
        case .uuid(let u): u.uuidString
        case .date(let d): DateCodec.sqlText(d)
        case .array, .dictionary: ModelJSON.serialize(value)
        case .data, .null: nil
        }
    }

    /// Runs `body` with C pointers to the values, lengths and formats.
    func withPointers<R>(
        _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) throws -> R
    ) rethrows -> R {
        try bytes.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
            // A non-null pointer for empty values (an empty string is not NULL).
            var empty: CChar = 0
            return try withUnsafePointer(to: &empty) { emptyPointer in
                let pointers: [UnsafePointer<CChar>?] = (0..<count).map { k in
                    if lengths[k] < 0 { return nil }
                    if lengths[k] == 0 { return emptyPointer }
                    return base.map { $0 + offsets[k] }
                }
                return try pointers.withUnsafeBufferPointer { values in
                    try lengths.withUnsafeBufferPointer { lengths in
                        try formats.withUnsafeBufferPointer { formats in
                            try body(values.baseAddress, lengths.baseAddress, formats.baseAddress)
                        }
                    }
                }
            }
        }
    }
}

/// Type names for messages.
enum PGTypeNames {
    static func name(_ oid: UInt32) -> String {
        switch oid {
        case PGType.bool: "boolean"
        case PGType.bytea: "bytea"
        case PGType.int8: "bigint"
        case PGType.int4: "integer"
        case PGType.int2: "smallint"
        case PGType.text: "text"
        case PGType.varchar: "varchar"
        case PGType.float8: "double precision"
        case PGType.float4: "real"
        case PGType.timestamptz: "timestamptz"
        case PGType.timestamp: "timestamp"
        case PGType.uuid: "uuid"
        case PGType.jsonb: "jsonb"
        case PGType.json: "json"
        case PGType.numeric: "numeric"
        default: "oid \(oid)"
        }
    }
}
