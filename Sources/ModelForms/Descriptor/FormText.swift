import Foundation

/// The text form of values in a form: what a row shows and what a submission sends back.
///
/// Every text it writes casts back to the same value under the casting rules
/// (`Docs/Casting.md`), so a form submitted unchanged changes nothing.
///
/// | value | text |
/// | --- | --- |
/// | nil | `""` |
/// | bool | `true`, `false` |
/// | int, double | `12`, `2.5` |
/// | date, `.date` input | `2012-09-15` (UTC) |
/// | date, other inputs | `2012-09-15T10:30:00Z` (fraction when there is one) |
/// | uuid | canonical |
/// | array, dictionary | JSON |
/// | data | base64 |
public enum FormText {
    /// The text for `value` in an input of `kind`.
    public static func text(for value: ModelValue, kind: FormInputKind) -> String {
        switch value {
        case .null: return ""
        case .string(let s): return s
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double:
            if case .string(let s)? = try? Caster.cast(value, to: CastTarget(.string)) { return s }
            return ""
        case .date(let date): return kind == .date ? dayText(date) : DateCodec.iso8601String(date)
        case .uuid(let u): return u.uuidString
        case .array, .dictionary: return ModelJSON.serialize(value)
        case .data(let d): return d.base64EncodedString()
        }
    }

    /// The date a date input's text names (`yyyy-MM-dd`, or any date text the casting
    /// rules accept), or nil.
    public static func date(from text: String) -> Date? {
        guard case .date(let date)? = try? Caster.cast(.string(text), to: CastTarget(.date)) else { return nil }
        return date
    }

    /// `yyyy-MM-dd` of `date` in UTC: the day a `.date` input shows.
    public static func dayText(_ date: Date) -> String {
        String(DateCodec.iso8601String(date).prefix(10))
    }
}
