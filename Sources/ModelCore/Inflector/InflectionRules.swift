import Foundation

/// One replacement rule: a case-insensitive regular expression and its template (`$1`
/// names the first capture group).
package struct InflectionRule {
    let pattern: String
    let regex: NSRegularExpression
    let template: String

    init(_ pattern: String, _ template: String) throws(InflectorError) {
        do {
            regex = try NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
        } catch {
            throw InflectorError(pattern: pattern, reason: "\(error)")
        }
        self.pattern = pattern
        self.template = template
    }

    /// The word with the rule applied, or nil when the pattern does not match.
    func apply(to word: String) -> String? {
        let range = NSRange(word.startIndex..., in: word)
        guard let match = regex.firstMatch(in: word, range: range) else { return nil }
        let replacement = regex.replacementString(for: match, in: word, offset: 0, template: template)
        guard let matched = Range(match.range, in: word) else { return nil }
        return word.replacingCharacters(in: matched, with: replacement)
    }
}

/// A rule in a pattern the inflector could not compile.
public struct InflectorError: Error, Sendable, CustomStringConvertible {
    /// The pattern as given.
    public let pattern: String
    /// Why it was refused.
    public let reason: String

    public var description: String { "invalid inflection pattern \"\(pattern)\": \(reason)" }
}

/// The inflector's rule tables. The most recently added rule is tried first, so user
/// rules take precedence over the defaults.
package struct InflectionRules {
    var plurals: [InflectionRule] = []
    var singulars: [InflectionRule] = []
    /// Lowercased singular → plural, and plural → singular.
    var irregularPlurals: [String: String] = [:]
    var irregularSingulars: [String: String] = [:]
    var uncountables: Set<String> = []

    mutating func addPlural(_ pattern: String, _ template: String) throws(InflectorError) {
        plurals.insert(try InflectionRule(pattern, template), at: 0)
    }

    mutating func addSingular(_ pattern: String, _ template: String) throws(InflectorError) {
        singulars.insert(try InflectionRule(pattern, template), at: 0)
    }

    mutating func addIrregular(_ singular: String, _ plural: String) {
        let (s, p) = (singular.lowercased(), plural.lowercased())
        uncountables.remove(s)
        uncountables.remove(p)
        irregularPlurals[s] = p
        irregularPlurals[p] = p
        irregularSingulars[p] = s
        irregularSingulars[s] = s
    }

    /// Stems of Latin nouns whose plural is -i (`alumnus` → `alumni`).
    private static let latinUs = "(alumn|bacill|cact|fung|nucle|radi|stimul|syllab|termin|foc|octop|hippopotam)"
    /// Stems of -us nouns that take the English plural -uses (`virus` → `viruses`; `bus`,
    /// `status` and `campus` have rules of their own).
    private static let englishUs = "(vir|bon|cens|prospect|circ|apparat|sin|surpl|ign|walr)"

    /// English, in the tradition of Rails' ActiveSupport inflections.
    static let english: InflectionRules = {
        var rules = InflectionRules()
        let plurals: [(String, String)] = [
            ("$", "s"), ("s$", "s"), ("^(ax|test)is$", "$1es"), ("(octop)us$", "$1i"), ("(octop)i$", "$1i"),
            ("(alias|status|campus)$", "$1es"), ("(bu)s$", "$1ses"), ("(buffal|tomat|potat|her|ech)o$", "$1oes"),
            ("([ti])um$", "$1a"), ("([ti])a$", "$1a"), ("sis$", "ses"), ("(?:([^f])fe|([lr])f)$", "$1$2ves"),
            ("(hive)$", "$1s"), ("([^aeiouy]|qu)y$", "$1ies"), ("(x|ch|ss|sh)$", "$1es"),
            ("(matr|vert|ind)(?:ix|ex)$", "$1ices"), ("^(m|l)ouse$", "$1ice"), ("^(m|l)ice$", "$1ice"),
            ("^(ox)$", "$1en"), ("^(oxen)$", "$1"), ("(quiz)$", "$1zes"),
            // Latin -us → -i, and the common -us words that take -uses.
            ("\(latinUs)us$", "$1i"), ("\(latinUs)i$", "$1i"), ("\(englishUs)us$", "$1uses"),
        ]
        let singulars: [(String, String)] = [
            ("s$", ""), ("(ss)$", "$1"), ("(n)ews$", "$1ews"), ("([ti])a$", "$1um"),
            ("((a)naly|(b)a|(d)iagno|(p)arenthe|(p)rogno|(s)ynop|(t)he)(sis|ses)$", "$1sis"),
            ("(^analy)(sis|ses)$", "$1sis"), ("([^f])ves$", "$1fe"), ("(hive)s$", "$1"), ("(tive)s$", "$1"),
            ("([lr])ves$", "$1f"), ("([^aeiouy]|qu)ies$", "$1y"), ("(s)eries$", "$1eries"), ("(m)ovies$", "$1ovie"),
            ("(x|ch|ss|sh)es$", "$1"), ("^(m|l)ice$", "$1ouse"), ("(bus)(es)?$", "$1"), ("(o)es$", "$1"),
            ("(shoe)s$", "$1"), ("(cris|test)(is|es)$", "$1is"), ("^(a)x[ie]s$", "$1xis"),
            ("(octop)(us|i)$", "$1us"), ("(alias|status|campus)(es)?$", "$1"), ("^(ox)en", "$1"),
            ("(vert|ind)ices$", "$1ex"), ("(matr)ices$", "$1ix"), ("(quiz)zes$", "$1"), ("(database)s$", "$1"),
            ("\(latinUs)(us|i)$", "$1us"), ("\(englishUs)(us|uses)$", "$1us"),
        ]
        // The defaults are constants checked by the tests; a pattern that did not compile
        // would leave its rule out rather than stop the process.
        for (pattern, template) in plurals { try? rules.addPlural(pattern, template) }
        for (pattern, template) in singulars { try? rules.addSingular(pattern, template) }
        for (singular, plural) in [
            ("person", "people"), ("man", "men"), ("woman", "women"), ("child", "children"), ("sex", "sexes"),
            ("move", "moves"), ("zombie", "zombies"), ("foot", "feet"), ("tooth", "teeth"), ("goose", "geese"),
            ("criterion", "criteria"), ("cactus", "cacti"),
        ] {
            rules.addIrregular(singular, plural)
        }
        rules.uncountables = [
            "equipment", "information", "rice", "money", "species", "series", "fish", "sheep", "jeans", "police",
            "news", "deer", "moose", "data", "metadata", "feedback", "software", "hardware", "staff",
        ]
        return rules
    }()
}
