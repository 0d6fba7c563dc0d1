// Generated from Docs/Inflector.md by Scripts/doc-snippets.py: do not edit; edit the document and rerun.
// swift-format-ignore-file

import ArrayAdapter
import FileAdapter
import Foundation
import SQLiteAdapter
import Testing

// Docs/Inflector.md, snippet 3 (line 56)
final class InflectorDoc_Todo: Model {
    static var tableName: String { "todo" }   // the table an earlier build made
    @Column var name = ""
    init() {}
}

extension InflectorDoc {
    /// Docs/Inflector.md, snippet 1 (line 7).
    static func snippet1(_ context: Context) throws {
        let inflector = Inflector.shared
        show(inflector.pluralize("person"))        // "people"
        show(inflector.singularize("statuses"))    // "status"
        show(inflector.pluralize("equipment"))     // "equipment"
        show(inflector.camelize("task_list"))      // "TaskList"   (lowerFirst: true → "taskList")
        show(inflector.underscore("URLString"))    // "url_string"
        show(inflector.humanize("author_id"))      // "Author"
        show(inflector.titleize("man_from_the_boondocks"))   // "Man From The Boondocks"
        show(inflector.tableize("TaskList"))       // "task_lists"
        show(inflector.classify("task_lists"))     // "TaskList"
        show(inflector.foreignKey("TaskList"))     // "task_list_id"
        show(inflector)
    }

    /// Docs/Inflector.md, snippet 2 (line 36).
    static func snippet2(_ context: Context) throws {
        let inflector = context.inflector
        show(inflector.irregular("octopus", "octopodes"))
        show(inflector.uncountable("luggage", "staff"))
        try show(inflector.plural("(cact)us$", "$1i"))       // case-insensitive regex, $1 = first group
        try show(inflector.singular("(cact)i$", "$1us"))
        show(inflector.reset())                              // back to the English defaults
        show(inflector.clear())                              // no rules at all (to build another language)
    }

    /// Docs/Inflector.md, snippet 3 (line 56).
    static func snippet3(_ context: Context) throws {
        _ = context
    }
}

@Suite("Docs/Inflector.md snippets") struct InflectorDocSnippetTests {
    @Test func snippet1() throws { try privately { try InflectorDoc.withContext { try InflectorDoc.snippet1($0) } } }
    @Test func snippet2() throws { try privately { try InflectorDoc.withContext { try InflectorDoc.snippet2($0) } } }
    @Test func snippet3() throws { try privately { try InflectorDoc.withContext { try InflectorDoc.snippet3($0) } } }
}
