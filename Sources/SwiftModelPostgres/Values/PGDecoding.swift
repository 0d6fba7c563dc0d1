import Foundation

/// Reads one binary-format result value as a ``ModelValue``, by the column's type OID.
///
/// Integers of every width read as `.int`, `real`/`double precision` as `.double`,
/// `timestamptz`/`timestamp` (microseconds since 2000) and `date` as `.date`, `uuid`,
/// `bytea`, text types as `.string`, `json`/`jsonb` as parsed JSON, `numeric` as `.int`
/// when integral and in range, else `.double`. Other types read as their raw bytes
/// (`.data`); cast them to `text` in SQL to read them as strings. A value that does not
/// decode (wrong length, bad UTF-8, infinite timestamps) reads as a value of another kind,
/// which the model layer reports as ``InvalidStoredValue`` naming the column.
enum PGDecoding {
    static func value(_ bytes: UnsafeRawBufferPointer, oid: UInt32) -> ModelValue {
        switch oid {
        case PGType.int8 where bytes.count == 8: return .int(Int64(bitPattern: integer(bytes, 8)))
        case PGType.int4 where bytes.count == 4: return .int(Int64(Int32(bitPattern: UInt32(integer(bytes, 4)))))
        case PGType.int2 where bytes.count == 2: return .int(Int64(Int16(bitPattern: UInt16(integer(bytes, 2)))))
        case PGType.oid where bytes.count == 4: return .int(Int64(UInt32(integer(bytes, 4))))
        case PGType.float8 where bytes.count == 8: return .double(Double(bitPattern: integer(bytes, 8)))
        case PGType.float4 where bytes.count == 4: return .double(Double(Float(bitPattern: UInt32(integer(bytes, 4)))))
        case PGType.bool where bytes.count == 1: return .bool(bytes[0] != 0)
        case PGType.bytea: return .data(Data(bytes))
        case PGType.uuid where bytes.count == 16:
            let u = bytes.loadUnaligned(as: uuid_t.self)
            return .uuid(UUID(uuid: u))
        case PGType.timestamptz where bytes.count == 8, PGType.timestamp where bytes.count == 8:
            let micros = Int64(bitPattern: integer(bytes, 8))
            // ±infinity: no Date; reported by the model layer as a stored value of another kind.
            if micros == .max { return .string("infinity") }
            if micros == .min { return .string("-infinity") }
            return .date(Date(timeIntervalSinceReferenceDate: Double(micros) / 1_000_000 - PGType.epochOffset))
        case PGType.date where bytes.count == 4:
            let days = Int32(bitPattern: UInt32(integer(bytes, 4)))
            if days == .max { return .string("infinity") }
            if days == .min { return .string("-infinity") }
            return .date(Date(timeIntervalSinceReferenceDate: Double(days) * 86_400 - PGType.epochOffset))
        case PGType.jsonb where bytes.first == 1: return json(UnsafeRawBufferPointer(rebasing: bytes.dropFirst()))
        case PGType.json: return json(bytes)
        case PGType.numeric: return numeric(bytes) ?? .data(Data(bytes))
        default:
            if PGType.isText(oid) || oid == PGType.char { return text(bytes) }
            return .data(Data(bytes))
        }
    }

    @inline(__always) static func integer(_ bytes: UnsafeRawBufferPointer, _ width: Int) -> UInt64 {
        var value: UInt64 = 0
        for k in 0..<width { value = value << 8 | UInt64(bytes[k]) }
        return value
    }

    @inline(__always) static func text(_ bytes: UnsafeRawBufferPointer) -> ModelValue {
        if let s = UTF8Text.string(bytes) { return .string(s) }
        return .data(Data(bytes))
    }

    static func json(_ bytes: UnsafeRawBufferPointer) -> ModelValue {
        guard let s = UTF8Text.string(bytes) else { return .data(Data(bytes)) }
        return (try? ModelJSON.parse(s)) ?? .string(s)
    }

    /// The binary `numeric` form: digit count, weight, sign, scale, then base-10000 digits.
    static func numeric(_ bytes: UnsafeRawBufferPointer) -> ModelValue? {
        guard bytes.count >= 8 else { return nil }
        let count = Int(integer(UnsafeRawBufferPointer(rebasing: bytes[0..<2]), 2))
        let weight = Int(Int16(bitPattern: UInt16(integer(UnsafeRawBufferPointer(rebasing: bytes[2..<4]), 2))))
        let sign = integer(UnsafeRawBufferPointer(rebasing: bytes[4..<6]), 2)
        let scale = Int(integer(UnsafeRawBufferPointer(rebasing: bytes[6..<8]), 2))
        guard bytes.count == 8 + 2 * count else { return nil }
        switch sign {
        case 0xC000: return .double(.nan)
        case 0xD000: return .double(.infinity)
        case 0xF000: return .double(-.infinity)
        case 0x0000, 0x4000: break
        default: return nil
        }
        var digits: [Int] = []
        for k in 0..<count {
            digits.append(Int(integer(UnsafeRawBufferPointer(rebasing: bytes[(8 + 2 * k)..<(10 + 2 * k)]), 2)))
        }
        // Exact integers when there is no fraction and the value fits.
        if scale == 0, weight >= 0, weight < 5 {
            var value: Int64 = 0
            var exact = true
            for position in 0...weight {
                let digit = position < digits.count ? Int64(digits[position]) : 0
                let (shifted, o1) = value.multipliedReportingOverflow(by: 10_000)
                let (sum, o2) = shifted.addingReportingOverflow(digit)
                if o1 || o2 {
                    exact = false
                    break
                }
                value = sum
            }
            if exact { return .int(sign == 0x4000 ? -value : value) }
        }
        if digits.isEmpty { return .int(0) }
        // Otherwise the nearest double, read from the decimal text (correctly rounded); a
        // value beyond Double's range stays text, which no number column accepts, so a
        // model read reports it as an InvalidStoredValue instead of reading ±infinity or 0.
        var text = sign == 0x4000 ? "-" : ""
        for (k, digit) in digits.enumerated() {
            let group = String(digit)
            text += k == 0 ? group : String(repeating: "0", count: max(0, 4 - group.count)) + group
        }
        text += "e\((weight - digits.count + 1) * 4)"
        return DecimalText.double(text).map(ModelValue.double) ?? .string(text)
    }
}
