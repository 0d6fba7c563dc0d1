import Foundation

/// The URL syntax the `url` rule accepts: one of the given schemes (any case), `://`, a
/// non-empty authority, then an optional path, query or fragment; no whitespace anywhere.
///
/// The grammar is one regular expression, written so that NSRegularExpression and
/// ECMA-262 (JSON Schema's `pattern`) read it the same way: ``patternBody`` is what JSON
/// Schema export writes.
package struct URLAddress: Sendable {
    /// The accepted schemes, lowercased, in declaration order.
    package let schemes: [String]
    /// The grammar without anchors.
    package let patternBody: String
    private let regex: CompiledRule.Pattern

    /// The grammar for `schemes`; throws when the list is empty or a scheme is not
    /// `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )` (RFC 3986).
    init(schemes: [String]) throws(RuleCompiler.Failure) {
        guard !schemes.isEmpty else { throw RuleCompiler.Failure(reason: "the url rule names no scheme") }
        var alternatives: [String] = []
        for scheme in schemes {
            let bytes = Array(scheme.utf8)
            guard let first = bytes.first, Self.isLetter(first),
                bytes.allSatisfy({ Self.isLetter($0) || Self.isDigit($0) || "+-.".utf8.contains($0) })
            else { throw RuleCompiler.Failure(reason: "\"\(scheme)\" is not a URL scheme") }
            // Each letter as a two-case class, so no engine needs a case-insensitive flag.
            alternatives.append(
                scheme.lowercased().map { c -> String in
                    if c.isLetter { return "[\(c)\(c.uppercased())]" }
                    return c == "." || c == "+" ? "\\\(c)" : String(c)
                }.joined())
        }
        self.schemes = schemes.map { $0.lowercased() }
        patternBody = "(?:" + alternatives.joined(separator: "|") + ")://[^\\s/?#]+(?:[/?#]\\S*)?"
        do {
            regex = try CompiledRule.Pattern(patternBody)
        } catch {
            throw RuleCompiler.Failure(reason: "the url grammar for \(schemes) does not compile")
        }
    }

    /// The grammar for `schemes`, or nil when they are not valid schemes.
    package static func grammar(schemes: [String]) -> URLAddress? { try? URLAddress(schemes: schemes) }

    /// Whether the whole string is a URL of this grammar.
    func matches(_ s: String) -> Bool { regex.matches(s) }

    private static func isLetter(_ b: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b)
    }
    private static func isDigit(_ b: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) }
}
