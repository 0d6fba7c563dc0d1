// Generated from Docs/Concurrency.md by Scripts/doc-snippets.py: do not edit; edit the document and rerun.
// swift-format-ignore-file

import ArrayAdapter
import FileAdapter
import Foundation
import SQLiteAdapter
import Testing

// Docs/Concurrency.md, snippet 1 (line 21)
final class ConcurrencyDoc_Book: Model {
    @Column var title = ""
    @Column var pages = 0
    @BelongsTo var shelf: ConcurrencyDoc_Shelf?
    init() {}
}

// Docs/Concurrency.md, snippet 1 (line 21)
final class ConcurrencyDoc_Shelf: Model {
    @Column var name = ""
    @HasMany var books: Children<ConcurrencyDoc_Book>
    init() {}
}

// Docs/Concurrency.md, snippet 1 (line 21)
@MainActor final class ConcurrencyDoc_ShelfScreen {
    var titles: [String] = []
    var longest: String?

    func refresh(shelfID: Int64) async throws {
        guard let shelf = try await ConcurrencyDoc_Shelf.find(shelfID) else { return }
        titles = try await shelf.books.order(by: \.title).all().map(\.title)
        longest = try await ConcurrencyDoc_Book.query().order(by: \.pages, .descending).first()?.title
        let total = try await ConcurrencyDoc_Book.query().count()
        print("\(total) books")
    }
}

// Docs/Concurrency.md, snippet 2 (line 82)
func ConcurrencyDoc_countLongBooks() async throws -> Int {
    // A detached task gets a Sendable result (a count), never the records themselves.
    let task = Task.detached { try await ConcurrencyDoc_Book.query().where(\.pages > 300).count() }
    return try await task.value
}

/// The context of Docs/Concurrency.md's snippets: a fresh in-memory default store.
enum ConcurrencyDoc {
    struct Context {}

    static func withContext(_ body: (Context) throws -> Void) throws {
        try ModelStore.using(ArrayAdapter()) { try body(Context()) }
    }
}

extension ConcurrencyDoc {
    /// Docs/Concurrency.md, snippet 1 (line 21).
    static func snippet1(_ context: Context) throws {
        _ = context


    }

    /// Docs/Concurrency.md, snippet 2 (line 82).
    static func snippet2(_ context: Context) throws {
        _ = context
    }
}

@Suite("Docs/Concurrency.md snippets") struct ConcurrencyDocSnippetTests {
    @Test func snippet1() throws { try ConcurrencyDoc.withContext { try ConcurrencyDoc.snippet1($0) } }
    @Test func snippet2() throws { try ConcurrencyDoc.withContext { try ConcurrencyDoc.snippet2($0) } }
}
