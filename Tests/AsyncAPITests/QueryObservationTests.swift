import ArrayAdapter
import Foundation

import Testing

/// `Query.values()` and `observe(_:)`: the current result, then one fresh result per
/// relevant commit, on every adapter; ends when the task is cancelled.
@Suite struct QueryObservationTests {
    @Test(arguments: AsyncStores.kinds) func yieldsNowThenAfterEachCommit(_ kind: String) async throws {
        let store = try AsyncStores.make(kind)
        let shelf = try AsyncStores.seed(store)
        let reads = Guarded(0)
        var titles = Book.query(in: store).order(by: \.title).observe { query in
            reads.withLock { $0 += 1 }
            return try query.all().map(\.title)
        }.makeAsyncIterator()
        #expect(try await titles.next() == ["Dune", "Emma", "Ubik"])
        try await shelf.books.create(["title": "Beloved", "pages": 324])
        #expect(try await titles.next() == ["Beloved", "Dune", "Emma", "Ubik"])
        // a transaction of many writes, a rollback, another table: one fresh read
        try await store.transaction { _ in
            for k in 0..<50 { try await Book.create(["title": .string("Z\(k)"), "pages": 1], in: store) }
        }
        struct Undo: Error {}
        _ = try? await store.transaction { _ in
            try await Book.create(["title": "never"], in: store)
            throw Undo()
        }
        try await Shelf.create(["name": "other table"], in: store)
        let readsBefore = reads.withLock { $0 }
        #expect(try await titles.next()?.count == 54)
        #expect(reads.withLock { $0 } == readsBefore + 1)
        // bulk writes count too
        try await Book.query(in: store).where(\.pages == 1).deleteAll()
        #expect(try await titles.next()?.count == 4)
    }

    @Test func valuesGivesRecordsToTheCaller() async throws {
        let store = ArrayAdapter()
        _ = try AsyncStores.seed(store)
        var shelves = Shelf.query(in: store).including(\.books).values().makeAsyncIterator()
        let first = try #require(try await shelves.next())
        #expect(first.first?.books.loaded?.count == 3)
        try await Book.create(["title": "loose"], in: store)  // an eager-loaded table
        let second = try #require(try await shelves.next())
        #expect(second.first?.books.loaded?.count == 3)  // the loose book has no shelf
        second.first?.name = "renamed here"  // the caller owns them
        #expect(second.first !== first.first)
    }

    @Test func duplicatesCanBeSkipped() async throws {
        let store = ArrayAdapter()
        _ = try AsyncStores.seed(store)
        var long = Book.query(in: store).where(\.pages > 300).values(removingDuplicates: true).makeAsyncIterator()
        #expect(try await long.next()?.count == 2)
        try await Book.create(["title": "short", "pages": 10], in: store)  // same result
        try await Book.create(["title": "long", "pages": 900], in: store)
        #expect(try await long.next()?.count == 3)
    }

    @Test func cancellingTheTaskEndsIteration() async throws {
        let store = ArrayAdapter()
        _ = try AsyncStores.seed(store)
        let seen = Guarded(0)
        let task = Task {
            for try await books in Book.query(in: store).values() { seen.withLock { $0 = books.count } }
            return "ended"
        }
        while seen.withLock({ $0 }) == 0 { await Task.yield() }
        task.cancel()
        #expect(try await task.value == "ended")
    }

    @Test func aMainActorViewModelFollowsAQuery() async throws {
        let store = ArrayAdapter()
        _ = try AsyncStores.seed(store)
        let model = await ShelfFollower(store: store)
        let following = Task { @MainActor in try await model.follow() }
        while await model.counts.isEmpty { await Task.yield() }
        try await Book.create(["title": "new", "pages": 1], in: store)
        while await model.counts.count < 2 { await Task.yield() }
        following.cancel()
        try await following.value
        #expect(await model.counts.prefix(2) == [3, 4])
    }
}

/// A main-actor view model that keeps a query's records current.
@MainActor final class ShelfFollower {
    let store: any PersistenceAdapter
    var books: [Book] = []
    var counts: [Int] = []

    init(store: any PersistenceAdapter) { self.store = store }

    func follow() async throws {
        for try await books in Book.query(in: store).order(by: \.title).values() {
            self.books = books
            counts.append(books.count)
        }
    }
}
