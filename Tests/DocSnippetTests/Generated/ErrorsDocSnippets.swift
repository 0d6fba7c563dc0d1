// Generated from Docs/Errors.md by Scripts/doc-snippets.py: do not edit; edit the document and rerun.
// swift-format-ignore-file

import ArrayAdapter
import FileAdapter
import Foundation
import SQLiteAdapter
import Testing

// Docs/Errors.md, snippet 1 (line 26)
final class ErrorsDoc_Member: Model {
    @Column(options: .unique) var handle: String?
    init() {}
}

// Docs/Errors.md, snippet 3 (line 81)
func ErrorsDoc_explain(_ body: () throws -> Void) -> String {
    do {
        try body()
        return "ok"
    } catch let error as any SwiftModelError {
        return [error.modelName, error.columnName].compactMap { $0 }.joined(separator: ".")
    } catch {
        return "\(error)"
    }
}

/// The context of Docs/Errors.md's snippets: a fresh in-memory default store.
enum ErrorsDoc {
    struct Context {}

    static func withContext(_ body: (Context) throws -> Void) throws {
        try ModelStore.using(ArrayAdapter()) { try body(Context()) }
    }
}

extension ErrorsDoc {
    /// Docs/Errors.md, snippet 1 (line 26).
    static func snippet1(_ context: Context) throws {

        try show(ErrorsDoc_Member.create(["handle": "ann"]))
        do {
            try ErrorsDoc_Member.create(["handle": "ann"])
        } catch let error as StoreError where error.kind == .uniqueViolation {
            print("taken:", error.column ?? "a unique column")   // "taken: handle"
        }
    }

    /// Docs/Errors.md, snippet 2 (line 55).
    static func snippet2(_ context: Context) throws {
        let store = ArrayAdapter()
        try show(ErrorsDoc_Member.create(["handle": "bob"], in: store))
        try show(store.close())
        do {
            _ = try ErrorsDoc_Member.count(in: store)
        } catch let error as StoreError where error.kind == .closed {
            print(error)   // "the in-memory store is closed"
        }
        show(store)
    }

    /// Docs/Errors.md, snippet 3 (line 81).
    static func snippet3(_ context: Context) throws {

        let member = ErrorsDoc_Member()
        show(ErrorsDoc_explain { try member.set("handle", to: ["not": "text"]) })   // "ErrorsDoc_Member.handle"
        show(ErrorsDoc_explain { try ErrorsDoc_Member.create(["nickname": "x"]) })            // "ErrorsDoc_Member.nickname"
        show(member)
    }
}

@Suite("Docs/Errors.md snippets") struct ErrorsDocSnippetTests {
    @Test func snippet1() throws { try privately { try ErrorsDoc.withContext { try ErrorsDoc.snippet1($0) } } }
    @Test func snippet2() throws { try privately { try ErrorsDoc.withContext { try ErrorsDoc.snippet2($0) } } }
    @Test func snippet3() throws { try privately { try ErrorsDoc.withContext { try ErrorsDoc.snippet3($0) } } }
}
