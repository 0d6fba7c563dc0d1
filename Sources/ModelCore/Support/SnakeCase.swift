/// `longName` → `long_name`, `userID` → `user_id`, `URLString` → `url_string`.
package func snakeCased(_ name: String) -> String {
    let scalars = Array(name.unicodeScalars)
    var out = String.UnicodeScalarView()
    for (k, c) in scalars.enumerated() {
        let isUpper = c.properties.isUppercase
        if isUpper, k > 0 {
            let previous = scalars[k - 1]
            let nextIsLower = k + 1 < scalars.count && scalars[k + 1].properties.isLowercase
            let previousIsLowerOrDigit = previous.properties.isLowercase || ("0"..."9").contains(previous)
            if previous != "_", previousIsLowerOrDigit || (previous.properties.isUppercase && nextIsLower) {
                out.append("_")
            }
        }
        out.append(contentsOf: isUpper ? c.properties.lowercaseMapping.unicodeScalars : String(c).unicodeScalars)
    }
    return String(out)
}
