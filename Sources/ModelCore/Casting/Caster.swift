import Foundation

/// The casting rules applied on init and on every assignment through the dynamic API.
///
/// Strict by design: anything that is not clearly the target type is a ``CastError``,
/// never a silent `0` or `false`. The full table is in `Docs/Casting.md`.
public enum Caster {
    /// Casts `value` to `target`, or throws a ``CastError`` (without model and column).
    ///
    /// ```swift
    /// try Caster.cast("12", to: CastTarget(.int))        // .int(12)
    /// try Caster.cast("yes", to: CastTarget(.bool))      // .bool(true)
    /// try Caster.cast("3.7", to: CastTarget(.int))       // throws: not an integer
    /// ```
    public static func cast(_ value: ModelValue, to target: CastTarget) throws(CastError) -> ModelValue {
        if case .null = value {
            guard target.isOptional else { throw CastError(value: value, target: target, reason: "the column is not optional") }
            return .null
        }
        do {
            return try castNonNull(value, to: target.type, elementType: target.elementType)
        } catch let reason {
            throw CastError(value: value, target: target, reason: reason.text)
        }
    }

    struct Reason: Error { let text: String; init(_ text: String) { self.text = text } }

    private static let dateRangeReason = "the date is outside 0000-01-01…9999-12-31 (ModelValue.dateRange)"

    private static func castNonNull(_ value: ModelValue, to type: ColumnType, elementType: ColumnType?) throws(Reason)
        -> ModelValue
    {
        switch type {
        case .string, .text: return .string(try toString(value))
        case .int: return .int(try toInt(value))
        case .double: return .double(try toDouble(value))
        case .bool: return .bool(try toBool(value))
        case .date: return .date(try toDate(value))
        case .uuid: return .uuid(try toUUID(value))
        case .data:
            guard case .data(let d) = value else { throw Reason("only data converts to data") }
            return .data(d)
        case .array: return .array(try toArray(value, elementType: elementType))
        case .dictionary: return .dictionary(try toDictionary(value, elementType: elementType))
        }
    }

    /// Numbers and bools render canonically (`5` → `"5"`, `true` → `"true"`); dates as
    /// ISO 8601, UUIDs as their canonical string.
    static func toString(_ value: ModelValue) throws(Reason) -> String {
        switch value {
        case .string(let s): return s
        case .int(let i): return String(i)
        case .double(let d):
            guard d.isFinite else { throw Reason("not a finite number") }
            return String(d)
        case .bool(let b): return b ? "true" : "false"
        case .date(let d):
            guard ModelValue.isStorable(d) else { throw Reason(dateRangeReason) }
            return DateCodec.iso8601String(d)
        case .uuid(let u): return u.uuidString
        default: throw Reason("\(value.kindName) has no string form")
        }
    }

    static func toInt(_ value: ModelValue) throws(Reason) -> Int64 {
        switch value {
        case .int(let i): return i
        case .double(let d):
            // Strictly inside ±2^63: a double of magnitude 2^63 is also what every larger
            // integer literal rounds to (`-9223372036854775809`), so it is refused on both
            // sides rather than read as Int64.min.
            guard d.isFinite, d.rounded(.towardZero) == d, d > -0x1p63, d < 0x1p63, let i = Int64(exactly: d) else {
                throw Reason("not an integral number in Int64's range")
            }
            return i
        case .string(let s):
            guard isIntegerLiteral(s) else { throw Reason("not an integer") }
            guard let i = Int64(s) else { throw Reason("out of Int64's range") }
            return i
        default: throw Reason("\(value.kindName) does not convert to int")
        }
    }

    static func toDouble(_ value: ModelValue) throws(Reason) -> Double {
        switch value {
        // `+ 0` turns negative zero into zero and leaves every other value as it is
        // (`Docs/Casting.md`, "Limits").
        case .double(let d):
            guard !d.isNaN else { throw Reason("NaN cannot be stored") }
            return d + 0
        case .int(let i): return Double(i)
        case .string(let s):
            guard isDecimalLiteral(s) else { throw Reason("not a decimal number") }
            guard let d = DecimalText.double(s) else { throw Reason("beyond Double's range") }
            return d + 0
        default: throw Reason("\(value.kindName) does not convert to double")
        }
    }

    static func toBool(_ value: ModelValue) throws(Reason) -> Bool {
        switch value {
        case .bool(let b): return b
        case .int(let i):
            guard i == 0 || i == 1 else { throw Reason("only 0 and 1 convert to bool") }
            return i == 1
        case .double(let d):
            guard d == 0 || d == 1 else { throw Reason("only 0 and 1 convert to bool") }
            return d == 1
        case .string(let s):
            switch s.lowercased() {
            case "true", "yes", "1": return true
            case "false", "no", "0": return false
            default: throw Reason("expected true/false, yes/no or 1/0")
            }
        default: throw Reason("\(value.kindName) does not convert to bool")
        }
    }

    static func toDate(_ value: ModelValue) throws(Reason) -> Date {
        switch value {
        case .date(let d):
            guard ModelValue.isStorable(d) else { throw Reason(dateRangeReason) }
            return d
        case .int(let i):
            let d = Date(timeIntervalSince1970: Double(i))
            guard ModelValue.isStorable(d) else { throw Reason(dateRangeReason) }
            return d
        case .double(let t):
            guard t.isFinite else { throw Reason("not a finite number of seconds") }
            let d = Date(timeIntervalSince1970: t)
            guard ModelValue.isStorable(d) else { throw Reason(dateRangeReason) }
            return d
        case .string(let s):
            guard let d = DateCodec.parse(s) else {
                throw Reason("expected ISO 8601, yyyy-MM-dd or yyyy-MM-dd HH:mm:ss Z")
            }
            guard ModelValue.isStorable(d) else { throw Reason(dateRangeReason) }
            return d
        default: throw Reason("\(value.kindName) does not convert to date")
        }
    }

    static func toUUID(_ value: ModelValue) throws(Reason) -> UUID {
        switch value {
        case .uuid(let u): return u
        case .string(let s):
            guard let u = UUIDText.uuid(s) else { throw Reason("not a UUID string") }
            return u
        default: throw Reason("\(value.kindName) does not convert to uuid")
        }
    }

    static func toArray(_ value: ModelValue, elementType: ColumnType?) throws(Reason) -> [ModelValue] {
        let elements: [ModelValue]
        switch value {
        case .array(let a): elements = a
        case .string(let s):
            guard case .array(let a)? = try? ModelJSON.parse(s) else { throw Reason("not a JSON array") }
            elements = a
        default: throw Reason("\(value.kindName) does not convert to array")
        }
        guard let elementType else { return elements }
        var result: [ModelValue] = []
        result.reserveCapacity(elements.count)
        for (k, element) in elements.enumerated() {
            do {
                result.append(try castNonNull(element, to: elementType, elementType: nil))
            } catch {
                throw Reason("element \(k) (\(element)): \(error.text)")
            }
        }
        return result
    }

    static func toDictionary(_ value: ModelValue, elementType: ColumnType?) throws(Reason) -> [String: ModelValue] {
        let entries: [String: ModelValue]
        switch value {
        case .dictionary(let d): entries = d
        case .string(let s):
            guard case .dictionary(let d)? = try? ModelJSON.parse(s) else { throw Reason("not a JSON object") }
            entries = d
        default: throw Reason("\(value.kindName) does not convert to dictionary")
        }
        guard let elementType else { return entries }
        var result: [String: ModelValue] = [:]
        for (key, element) in entries {
            do {
                result[key] = try castNonNull(element, to: elementType, elementType: nil)
            } catch {
                throw Reason("key \"\(key)\" (\(element)): \(error.text)")
            }
        }
        return result
    }

    /// `[+-]?[0-9]+`, nothing else (no spaces, no fraction).
    private static func isIntegerLiteral(_ s: String) -> Bool {
        var digits = 0
        for (k, c) in s.utf8.enumerated() {
            if k == 0, c == UInt8(ascii: "-") || c == UInt8(ascii: "+") { continue }
            guard c >= 48, c <= 57 else { return false }
            digits += 1
        }
        return digits > 0
    }

    /// `[+-]?digits[.digits][e[+-]digits]` (either side of the point may be empty, not both).
    private static func isDecimalLiteral(_ s: String) -> Bool {
        var sawDigit = false
        var sawExponent = false
        var previous: UInt8 = 0
        for (k, c) in s.utf8.enumerated() {
            switch c {
            case 48...57: sawDigit = true
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                guard k == 0 || previous == UInt8(ascii: "e") || previous == UInt8(ascii: "E") else { return false }
            case UInt8(ascii: "."): guard !sawExponent else { return false }
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                guard sawDigit, !sawExponent else { return false }
                sawExponent = true
            default: return false
            }
            previous = c
        }
        return sawDigit && previous != UInt8(ascii: "e") && previous != UInt8(ascii: "E")
    }
}
