import ModelCore

/// String matching for ``TextOperator``, on Unicode scalars, with optional ASCII case
/// folding (exactly what SQLite's `LIKE` does without ICU, so engines agree).
public enum TextMatcher {
    /// Whether `subject` matches `text` under `op`.
    public static func matches(_ subject: String, _ op: TextOperator, _ text: String, caseInsensitive: Bool) -> Bool {
        let s = scalars(subject, fold: caseInsensitive)
        let t = scalars(text, fold: caseInsensitive)
        switch op {
        case .beginsWith: return s.starts(with: t)
        case .endsWith: return s.count >= t.count && s[(s.count - t.count)...].elementsEqual(t)
        case .contains:
            if t.isEmpty { return true }
            guard s.count >= t.count else { return false }
            for start in 0...(s.count - t.count) where s[start..<(start + t.count)].elementsEqual(t) { return true }
            return false
        case .like: return like(s[...], pattern(t)[...])
        }
    }

    /// One element of a match pattern: a literal scalar, one scalar (`_`), any run (`%`).
    package enum Token: Equatable { case literal(UInt32), one, any }

    /// The pattern `op` with `text` stands for, as tokens (literal text for `contains`,
    /// `beginsWith` and `endsWith`; `%`, `_` and `\` escapes for `like`). SQL adapters
    /// render these as `LIKE` or `GLOB` patterns, so both engines read patterns the same way.
    package static func tokens(_ op: TextOperator, _ text: String) -> [Token] {
        let literal = text.unicodeScalars.map { Token.literal($0.value) }
        switch op {
        case .contains: return [.any] + literal + [.any]
        case .beginsWith: return literal + [.any]
        case .endsWith: return [.any] + literal
        case .like: return pattern(text.unicodeScalars.map(\.value))
        }
    }

    static func pattern(_ p: [UInt32]) -> [Token] {
        var tokens: [Token] = []
        var k = 0
        while k < p.count {
            let c = p[k]
            if c == 92, k + 1 < p.count {  // backslash escapes the next scalar
                tokens.append(.literal(p[k + 1]))
                k += 2
                continue
            }
            tokens.append(c == 37 ? .any : c == 95 ? .one : .literal(c))
            k += 1
        }
        return tokens
    }

    /// Iterative wildcard matching with single backtrack point: O(n·m) worst case.
    static func like(_ s: ArraySlice<UInt32>, _ p: ArraySlice<Token>) -> Bool {
        var si = s.startIndex, pi = p.startIndex
        var starP: Int? = nil, starS = 0
        while si < s.endIndex {
            if pi < p.endIndex, p[pi] == .one || p[pi] == .literal(s[si]) {
                si += 1
                pi += 1
            } else if pi < p.endIndex, p[pi] == .any {
                starP = pi
                starS = si
                pi += 1
            } else if let star = starP {
                pi = star + 1
                starS += 1
                si = starS
            } else {
                return false
            }
        }
        while pi < p.endIndex, p[pi] == .any { pi += 1 }
        return pi == p.endIndex
    }

    static func scalars(_ s: String, fold: Bool) -> [UInt32] {
        s.unicodeScalars.map { c in
            let v = c.value
            return fold && v >= 65 && v <= 90 ? v + 32 : v
        }
    }
}
