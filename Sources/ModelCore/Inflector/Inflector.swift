import Foundation

/// English word inflections: plurals and singulars, and the case conversions models use
/// for table names, JSON keys and messages.
///
/// ```swift
/// let inflector = Inflector.shared
/// inflector.pluralize("person")       // "people"
/// inflector.singularize("statuses")   // "status"
/// inflector.tableize("TaskList")      // "task_lists"  (Todo.tableName's default)
/// inflector.camelize("due_date")      // "DueDate"
/// inflector.humanize("author_id")     // "Author"
///
/// // Rules added at run time take precedence over the defaults:
/// inflector.irregular("octopus", "octopodes")
/// inflector.uncountable("luggage")
/// try inflector.plural("(cact)us$", "$1i")
/// inflector.reset()                   // back to the English defaults
/// ```
///
/// Plurals and singulars apply to the last word (after `_`, `-`, a space or a lower-to-upper
/// case change), so `task_list` becomes `task_lists` and `SalesPerson` `SalesPeople`.
///
/// ## Threading
/// Thread-safe: the rule tables are guarded by a lock; changes are visible to every thread.
/// Model table names are computed once per type, so add rules before models are first used.
public final class Inflector: Sendable {
    /// The process-wide inflector: model table names and relation names use it.
    public static let shared = Inflector()

    private let rules: Locked<InflectionRules>

    /// An inflector with the English rules.
    public init() { rules = Locked(InflectionRules.english) }

    // MARK: Rules

    /// Adds an irregular pair (`person` / `people`); case follows the input word.
    public func irregular(_ singular: String, _ plural: String) {
        rules.withLock { $0.addIrregular(singular, plural) }
    }

    /// Adds a plural rule: a case-insensitive regular expression and a template
    /// (`$1` is the first group). Tried before every earlier rule.
    ///
    /// - Throws: ``InflectorError`` when the pattern does not compile.
    public func plural(_ pattern: String, _ template: String) throws(InflectorError) {
        let rule = try InflectionRule(pattern, template)
        rules.withLock { $0.plurals.insert(rule, at: 0) }
    }

    /// Adds a singular rule (see ``plural(_:_:)``).
    ///
    /// - Throws: ``InflectorError`` when the pattern does not compile.
    public func singular(_ pattern: String, _ template: String) throws(InflectorError) {
        let rule = try InflectionRule(pattern, template)
        rules.withLock { $0.singulars.insert(rule, at: 0) }
    }

    /// Marks words as having one form (`equipment`, `sheep`).
    public func uncountable(_ words: String...) {
        rules.withLock { rules in
            for word in words {
                let word = word.lowercased()
                rules.uncountables.insert(word)
                rules.irregularPlurals[word] = nil
                rules.irregularSingulars[word] = nil
            }
        }
    }

    /// Drops every rule added at run time: back to the English defaults.
    public func reset() { rules.withLock { $0 = InflectionRules.english } }

    /// Drops every rule, defaults included (for building a different language's table).
    public func clear() { rules.withLock { $0 = InflectionRules() } }

    // MARK: Plurals

    /// The plural of the last word: `post` → `posts`, `person` → `people`,
    /// `sheep` → `sheep`, `task_list` → `task_lists`.
    public func pluralize(_ word: String) -> String {
        inflectLastWord(of: word) { rules, last, lower in
            if let plural = rules.irregularPlurals[lower] { return plural }
            return rules.plurals.lazy.compactMap { $0.apply(to: last) }.first
        }
    }

    /// The singular of the last word: `posts` → `post`, `people` → `person`,
    /// `statuses` → `status`.
    public func singularize(_ word: String) -> String {
        inflectLastWord(of: word) { rules, last, lower in
            if let singular = rules.irregularSingulars[lower] { return singular }
            return rules.singulars.lazy.compactMap { $0.apply(to: last) }.first
        }
    }

    /// Splits off the last word, looks it up, and keeps the original capitalisation.
    private func inflectLastWord(
        of word: String, _ transform: (InflectionRules, String, String) -> String?
    ) -> String {
        let start = Self.lastWordStart(word)
        let head = String(word[..<start])
        let last = String(word[start...])
        guard !last.isEmpty else { return word }
        let lower = last.lowercased()
        let result: String? = rules.withLock { rules in
            if rules.uncountables.contains(lower) { return nil }
            return transform(rules, last, lower)
        }
        guard let result else { return word }
        return head + Self.matchCase(of: last, in: result)
    }

    /// Where the last word begins: after the last `_`, `-`, space or lower-to-upper change.
    private static func lastWordStart(_ word: String) -> String.Index {
        var start = word.startIndex
        var previous: Character?
        var index = word.startIndex
        while index < word.endIndex {
            let c = word[index]
            if c == "_" || c == "-" || c == " " || c == "/" {
                start = word.index(after: index)
            } else if let p = previous, c.isUppercase, p.isLowercase || p.isNumber {
                start = index
            }
            previous = c
            index = word.index(after: index)
        }
        return start
    }

    /// `result` with the capitalisation of `original`: all caps, capitalised or as is.
    private static func matchCase(of original: String, in result: String) -> String {
        guard let first = original.first, first.isUppercase else { return result }
        if original.count > 1, original == original.uppercased() { return result.uppercased() }
        guard let head = result.first, !head.isUppercase else { return result }
        return head.uppercased() + result.dropFirst()
    }

    // MARK: Case conversions

    /// `task_list` → `TaskList`; with `lowerFirst`, `taskList`. Slashes become dots
    /// (`admin/user` → `Admin.User`).
    public func camelize(_ word: String, lowerFirst: Bool = false) -> String {
        var out = ""
        var upperNext = !lowerFirst
        var atStart = true
        for c in word {
            if c == "_" || c == " " || c == "-" {
                upperNext = !atStart || !lowerFirst
                continue
            }
            if c == "/" {
                out.append(".")
                upperNext = true
                continue
            }
            if upperNext {
                out += c.uppercased()
            } else if atStart && lowerFirst {
                out += c.lowercased()
            } else {
                out.append(c)
            }
            upperNext = false
            atStart = false
        }
        return out
    }

    /// `TaskList` → `task_list`, `userID` → `user_id`, `URLString` → `url_string`;
    /// dots become slashes and dashes underscores.
    public func underscore(_ word: String) -> String {
        snakeCased(word.replacingOccurrences(of: ".", with: "/").replacingOccurrences(of: "-", with: "_"))
    }

    /// A label for people: `employee_salary` → `Employee salary`, `author_id` → `Author`.
    public func humanize(_ word: String) -> String {
        var text = underscore(word)
        if text.hasSuffix("_id"), text.count > 3 { text.removeLast(3) }
        let words = text.split(separator: "_", omittingEmptySubsequences: true).joined(separator: " ")
        guard let first = words.first else { return "" }
        return first.uppercased() + words.dropFirst()
    }

    /// Every word capitalised: `man_from_the_boondocks` → `Man From The Boondocks`.
    public func titleize(_ word: String) -> String {
        humanize(word).split(separator: " ").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
    }

    /// A model type's default table name: `TaskList` → `task_lists`, `Person` → `people`.
    public func tableize(_ typeName: String) -> String { pluralize(underscore(typeName)) }

    /// A table name's model type name: `task_lists` → `TaskList`.
    public func classify(_ tableName: String) -> String { camelize(singularize(tableName)) }

    /// The foreign-key column for a model: `Todo` → `todo_id`.
    public func foreignKey(_ typeName: String) -> String { underscore(typeName) + "_id" }
}
