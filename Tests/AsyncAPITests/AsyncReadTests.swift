import ArrayAdapter
import Foundation
import Testing

/// The async read API on every adapter: same answers and errors as the synchronous API.
@Suite struct AsyncReadTests {
    @Test(arguments: AsyncStores.kinds) func readsMatchTheSynchronousAPI(_ kind: String) async throws {
        let store = try AsyncStores.make(kind)
        let shelf = try AsyncStores.seed(store)
        let id = try #require(shelf.id)
        #expect(try await Shelf.find(id, in: store)?.name == "fiction")
        #expect(try await Shelf.find(id + 100, in: store) == nil)
        #expect(try await Book.all(in: store).map(\.title) == Book.all(in: store).map(\.title))
        #expect(try await Book.count(in: store) == 3)
        let long = Book.query(in: store).where(\.pages > 300)
        #expect(try await long.order(by: \.title).all().map(\.title) == ["Dune", "Emma"])
        #expect(try await long.count() == 2)
        #expect(try await long.exists())
        #expect(try await long.order(by: \.pages, .descending).first()?.title == "Emma")
        #expect(try await Book.query(in: store).order(by: \.title).last()?.title == "Ubik")
        #expect(try await Book.query(in: store).order(by: \.title).page(2, per: 2).items.map(\.title) == ["Ubik"])
        #expect(try await Book.query(in: store).sum("pages") == .int(1088))
        #expect(try await Book.query(in: store).pluck("title").count == 3)
        // eager loading runs off the caller's thread too
        let shelves = try await Shelf.query(in: store).including(\.books).all()
        #expect(shelves.first?.books.loaded?.count == 3)
    }

    @Test(arguments: AsyncStores.kinds) func relationLoads(_ kind: String) async throws {
        let store = try AsyncStores.make(kind)
        let shelf = try AsyncStores.seed(store)
        let book = try #require(try await Book.query(in: store).where(\.title == "Emma").first())
        #expect(book.shelf == nil)  // not loaded
        #expect(try await book.load(\.shelf)?.name == "fiction")
        #expect(book.shelf?.name == "fiction")
        let fetched = try #require(try await Shelf.find(shelf.id ?? 0, in: store))
        #expect(try await fetched.books.count() == 3)
        #expect(try await fetched.books.all().first?.shelf === fetched)
        #expect(try await fetched.load(\.books).count == 3)
        #expect(fetched.books.loaded?.count == 3)
    }

    @Test func errorsAreTheSynchronousOnes() async throws {
        let store = ArrayAdapter()
        _ = try AsyncStores.seed(store)
        let bad = Book.query(in: store).where("no_such_column").eq(1)
        #expect(throws: QueryError.self) { try bad.all() }
        await #expect(throws: QueryError.self) { try await bad.all() }
        await #expect(throws: ModelError.self) { try await Book.count() }  // no store anywhere
    }

    @Test func storeScopesOfTheCallerApply() async throws {
        let store = ArrayAdapter()
        _ = try AsyncStores.seed(store)
        let count = try await ModelStore.using(store) { try await Book.query().count() }
        #expect(count == 3)
    }

    @Test func theMainActorAndDetachedTasksUseIt() async throws {
        let store = ArrayAdapter()
        _ = try AsyncStores.seed(store)
        let model = await ShelfViewModel(store: store)
        try await model.refresh()
        #expect(await model.titles == ["Dune", "Emma", "Ubik"])
        let detached = Task.detached { try await Book.query(in: store).where(\.pages < 300).count() }
        #expect(try await detached.value == 1)
    }
}
