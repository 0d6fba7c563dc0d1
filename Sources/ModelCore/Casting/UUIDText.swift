import Foundation

/// Reading UUIDs from text: only the canonical form, 36 characters
/// (`E621E1F8-C36C-495A-93FC-0C247A3E6E5F`, either case).
///
/// Foundation's `UUID(uuidString:)` reads C strings, so it stops at a NUL and accepts
/// `"<uuid>\u{0}garbage"`; every place that turns text into a UUID goes through
/// ``uuid(_:)`` instead.
package enum UUIDText {
    /// The UUID `text` spells canonically, or nil.
    package static func uuid(_ text: String) -> UUID? {
        guard isCanonical(text.utf8) else { return nil }
        return UUID(uuidString: text)
    }

    private static func isCanonical(_ bytes: some Collection<UInt8>) -> Bool {
        guard bytes.count == 36 else { return false }
        for (k, c) in bytes.enumerated() {
            if k == 8 || k == 13 || k == 18 || k == 23 {
                guard c == UInt8(ascii: "-") else { return false }
            } else {
                guard (48...57).contains(c) || (65...70).contains(c) || (97...102).contains(c) else { return false }
            }
        }
        return true
    }
}
