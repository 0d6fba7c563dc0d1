/// The email syntax the `email` rule accepts: the WHATWG HTML "valid e-mail address"
/// grammar, plus a dot-separated domain of at least two labels, no empty local-part labels,
/// and the lengths of RFC 5321 (64 for the local part, 254 in all).
package enum EmailAddress {
    private static let localSpecials = Set("!#$%&'*+/=?^_`{|}~-".utf8)

    /// The same grammar as one regular expression without anchors, for JSON Schema's
    /// `pattern` (ECMA-262) and NSRegularExpression alike: lengths by lookahead, the
    /// local part's atoms, then two or more domain labels, the last not all digits.
    package static let patternBody =
        "(?=.{1,254}$)(?=[^@]{1,64}@)"
        + "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
        + "@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+"
        + "(?![0-9]+$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"

    static func isValid(_ address: String) -> Bool {
        let bytes = Array(address.utf8)
        guard bytes.count <= 254, let at = bytes.lastIndex(of: UInt8(ascii: "@")) else { return false }
        let local = bytes[..<at], domain = bytes[(at + 1)...]
        guard (1...64).contains(local.count), !domain.isEmpty else { return false }
        // Local part: dot-separated non-empty atoms.
        for atom in local.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false) {
            guard !atom.isEmpty else { return false }
            for byte in atom where !(isAlphanumeric(byte) || localSpecials.contains(byte)) { return false }
        }
        // Domain: two or more labels of letters, digits and inner hyphens; the last not numeric.
        let labels = domain.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return false }
        for label in labels {
            guard (1...63).contains(label.count), let first = label.first, let last = label.last,
                isAlphanumeric(first), isAlphanumeric(last)
            else { return false }
            for byte in label where !(isAlphanumeric(byte) || byte == UInt8(ascii: "-")) { return false }
        }
        if let tld = labels.last, tld.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) { return false }
        return true
    }

    private static func isAlphanumeric(_ b: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b)
    }
}
