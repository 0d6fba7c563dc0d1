import Foundation

/// Percent-encoding of path segments and query items as the client sends them and the
/// server's routes build them.
package enum PercentEncoding {
    private static let queryAllowed: CharacterSet = {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return allowed
    }()

    /// `text` percent-encoded for a path segment or a query item: only unreserved
    /// characters stay as they are.
    package static func escape(_ text: String) -> String {
        // The common case — ids, names of plain ASCII — needs nothing, and no NSString.
        let plain = text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                true
            default: false
            }
        }
        if plain { return text }
        return text.addingPercentEncoding(withAllowedCharacters: queryAllowed) ?? text
    }
}
