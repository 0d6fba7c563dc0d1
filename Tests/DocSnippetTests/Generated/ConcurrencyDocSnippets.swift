// Generated from Docs/Concurrency.md by Scripts/doc-snippets.py: do not edit; edit the document and rerun.
// swift-format-ignore-file

import ArrayAdapter
import FileAdapter
import Foundation
import SQLiteAdapter
import Testing

// Docs/Concurrency.md, snippet 1 (line 24)
final class ConcurrencyDoc_Book: Model {
    @Column var title = ""
    @Column var pages = 0
    @BelongsTo var shelf: ConcurrencyDoc_Shelf?
    init() {}
}

// Docs/Concurrency.md, snippet 1 (line 24)
final class ConcurrencyDoc_Shelf: Model {
    @Column var name = ""
    @HasMany var books: Children<ConcurrencyDoc_Book>
    init() {}
}

// Docs/Concurrency.md, snippet 1 (line 24)
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

// Docs/Concurrency.md, snippet 2 (line 80)
@MainActor final class ConcurrencyDoc_BookEditor {
    var book = ConcurrencyDoc_Book()
    var error: String?

    func rename(to title: String) async {
        book.title = title
        do {
            try await book.save()          // hooks here, the write on the pool
        } catch {
            self.error = "\(error)"         // the book is still dirty, nothing was written
        }
    }

    func retire() async throws {
        try await book.destroy()           // delete rules run in one store transaction
    }
}

// Docs/Concurrency.md, snippet 3 (line 149)
final class ConcurrencyDoc_Order: Model {
    @Column var customer = ""
    init() {}
}

// Docs/Concurrency.md, snippet 3 (line 149)
final class ConcurrencyDoc_Seat: Model {
    @Column var row = ""
    @Column var orderID: Int64?
    init() {}
}

// Docs/Concurrency.md, snippet 3 (line 149)
func ConcurrencyDoc_reserve(_ seat: ConcurrencyDoc_Seat, for order: ConcurrencyDoc_Order, in store: any PersistenceAdapter) throws {
    try store.transaction { tx in
        try order.save()
        // A nested level: if the seat is gone, only this level is undone.
        try? tx.savepoint {
            seat.orderID = order.id
            try seat.save()
        }
    }
}

// Docs/Concurrency.md, snippet 4 (line 182)
final class ConcurrencyDoc_Account: Model {
    @Column var owner = ""
    @Column var balance = 0
    init() {}
}

// Docs/Concurrency.md, snippet 4 (line 182)
func ConcurrencyDoc_transfer(_ amount: Int, from fromID: Int64, to toID: Int64, in store: any PersistenceAdapter) async throws {
    try await store.transaction { _ in
        guard let from = try await ConcurrencyDoc_Account.find(fromID, in: store), let to = try await ConcurrencyDoc_Account.find(toID, in: store) else {
            throw ModelError(.recordNotFound, model: "ConcurrencyDoc_Account", message: "no such account")
        }
        from.balance -= amount
        to.balance += amount
        try await from.save()
        try await to.save()                // if this throws, neither is saved
    }
}

// Docs/Concurrency.md, snippet 5 (line 212)
@MainActor final class ConcurrencyDoc_Checkout {
    var cart: [ConcurrencyDoc_Account] = []

    func settle(in store: any PersistenceAdapter) async throws {
        try await store.transaction { _ in
            try await self.saveCart()       // main-actor records, written inside the transaction
            try await ConcurrencyDoc_Account.create(["owner": "ledger"], in: store)
        }
    }

    func saveCart() async throws {
        for account in cart { try await account.save() }
    }
}

// Docs/Concurrency.md, snippet 6 (line 245)
@MainActor final class ConcurrencyDoc_ShelfList {
    var books: [ConcurrencyDoc_Book] = []
    var longCount = 0

    func follow() async throws {
        for try await books in ConcurrencyDoc_Book.query().order(by: \.title).values() {
            self.books = books             // now, and after each relevant commit
        }
    }

    func followCount() async throws {
        for try await count in ConcurrencyDoc_Book.where(\.pages > 300).observe({ try $0.count() }) {
            longCount = count
        }
    }
}

// Docs/Concurrency.md, snippet 8 (line 343)
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
    /// Docs/Concurrency.md, snippet 1 (line 24).
    static func snippet1(_ context: Context) throws {
        _ = context


    }

    /// Docs/Concurrency.md, snippet 2 (line 80).
    static func snippet2(_ context: Context) throws {
        _ = context
    }

    /// Docs/Concurrency.md, snippet 3 (line 149).
    static func snippet3(_ context: Context) throws {
        _ = context


    }

    /// Docs/Concurrency.md, snippet 4 (line 182).
    static func snippet4(_ context: Context) throws {
        _ = context

    }

    /// Docs/Concurrency.md, snippet 5 (line 212).
    static func snippet5(_ context: Context) throws {
        _ = context
    }

    /// Docs/Concurrency.md, snippet 6 (line 245).
    static func snippet6(_ context: Context) throws {
        _ = context
    }

    /// Docs/Concurrency.md, snippet 8 (line 343).
    static func snippet8(_ context: Context) throws {
        _ = context
    }
}

@Suite("Docs/Concurrency.md snippets") struct ConcurrencyDocSnippetTests {
    @Test func snippet1() throws { try privately { try ConcurrencyDoc.withContext { try ConcurrencyDoc.snippet1($0) } } }
    @Test func snippet2() throws { try privately { try ConcurrencyDoc.withContext { try ConcurrencyDoc.snippet2($0) } } }
    @Test func snippet3() throws { try privately { try ConcurrencyDoc.withContext { try ConcurrencyDoc.snippet3($0) } } }
    @Test func snippet4() throws { try privately { try ConcurrencyDoc.withContext { try ConcurrencyDoc.snippet4($0) } } }
    @Test func snippet5() throws { try privately { try ConcurrencyDoc.withContext { try ConcurrencyDoc.snippet5($0) } } }
    // snippet 6 is compiled only (marked compile-only in the document)
    @Test func snippet8() throws { try privately { try ConcurrencyDoc.withContext { try ConcurrencyDoc.snippet8($0) } } }
}
