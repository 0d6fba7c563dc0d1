// Generated from Docs/Logging.md by Scripts/doc-snippets.py: do not edit; edit the document and rerun.
// swift-format-ignore-file

import ArrayAdapter
import FileAdapter
import Foundation
import SQLiteAdapter
import Testing

extension LoggingDoc {
    /// Docs/Logging.md, snippet 1 (line 15).
    static func snippet1(_ context: Context) throws {
        let bulkImport = context.bulkImport
        show(ModelLog.setLevel(.debug, for: "sqlite"))      // one subsystem
        ModelLog.level = .info                        // every other subsystem
        show(ModelLog.silence())                            // nothing at all…
        show(ModelLog.resume())                             // …until resumed (calls nest)
        try show(ModelLog.silenced { try bulkImport() })
        show(ModelLog.reset())                              // the defaults
    }

    /// Docs/Logging.md, snippet 2 (line 29).
    static func snippet2(_ context: Context) throws {
        var configuration = SQLiteConfiguration()
        configuration.logsStatements = true           // registers SQLite's profile trace
        show(ModelLog.setLevel(.debug, for: "sqlite"))
        let store = try SQLiteAdapter(path: "app.sqlite", configuration: configuration)
        show(configuration, store)
    }

    /// Docs/Logging.md, snippet 3 (line 47).
    static func snippet3(_ context: Context) throws {
        let report = context.report
        let log = ModelLogger(subsystem: "sync")
        show(log.info("imported \(report)"))                 // the message is built only when enabled
        show(log)
    }
}

@Suite("Docs/Logging.md snippets") struct LoggingDocSnippetTests {
    // snippet 1 is compiled only (marked compile-only in the document)
    // snippet 2 is compiled only (marked compile-only in the document)
    @Test func snippet3() throws { try privately { try LoggingDoc.withContext { try LoggingDoc.snippet3($0) } } }
}
