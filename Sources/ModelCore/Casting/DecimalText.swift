/// Reading decimal text as a `Double`, refusing what a `Double` cannot hold.
///
/// `Double("1e400")` is infinity and `Double("1e-400")` is zero: both read a number the
/// text does not name. Every place that turns text into a double (the JSON reader, the
/// casting rules, PostgreSQL `numeric`) goes through ``double(_:)`` instead, so such text
/// is an error wherever it comes from (`Docs/Casting.md`, "Numbers").
package enum DecimalText {
    /// The double `text` names, or nil when it names none: text `Double` does not parse,
    /// a magnitude beyond `Double`'s range (it would read as ±infinity), or a non-zero
    /// magnitude below its smallest subnormal (it would read as zero).
    package static func double(_ text: some StringProtocol) -> Double? {
        guard let d = Double(text), d.isFinite else { return nil }
        if d == 0, hasNonzeroMantissa(text.utf8) { return nil }
        return d
    }

    /// Whether the digits before any exponent include one that is not zero.
    private static func hasNonzeroMantissa(_ utf8: some Sequence<UInt8>) -> Bool {
        for c in utf8 {
            if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") { return false }
            if c >= 49, c <= 57 { return true }
        }
        return false
    }
}
