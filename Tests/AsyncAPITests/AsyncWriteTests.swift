import ArrayAdapter
import Foundation
import Testing

/// The async write API on every adapter: same results, hooks and errors as the
/// synchronous API; a failed or cancelled write leaves store and record as they were.
@Suite struct AsyncWriteTests {
    @Test(arguments: AsyncStores.kinds) func saveCreateAndDelete(_ kind: String) async throws {
        let store = try AsyncStores.make(kind)
        let shelf = Shelf()
        shelf.name = "poetry"
        try await shelf.save(to: store)
        let id = try #require(shelf.id)
        #expect(!shelf.isNew && !shelf.isDirty)
        #expect(try await Shelf.find(id, in: store)?.name == "poetry")
        shelf.name = "verse"
        #expect(shelf.isDirty)
        try await shelf.save()
        #expect(!shelf.isDirty)
        #expect(try await Shelf.find(id, in: store)?.name == "verse")
        let made = try await Shelf.create(["name": "drama"], in: store)
        #expect(made.id != nil && !made.isNew)
        #expect(try await made.delete())
        #expect(made.isNew)
        #expect(try await Shelf.count(in: store) == 1)
        await #expect(throws: ModelError.self) { try await made.delete() }  // not stored any more
    }

    @Test(arguments: AsyncStores.kinds) func hooksValidationAndDecliningRunAsSynchronously(_ kind: String) async throws {
        let store = try AsyncStores.make(kind)
        let card = Card()
        card.word = ""
        await #expect(throws: RecordInvalid.self) { try await card.save(to: store) }
        #expect(card.isNew && card.errors.messages(for: "word") == ["can't be blank"])
        #expect(try await !card.saveIfValid(to: store))
        card.word = "ok"
        try await card.save(to: store)
        #expect(card.log == ["beforeSave", "beforeCreate", "afterCreate", "afterSave"])
        card.word = "again"
        card.declines = true
        await #expect(throws: ModelError.self) { try await card.save() }
        #expect(card.isDirty && card.word == "again")
        #expect(try await Card.find(card.id ?? 0, in: store)?.word == "ok")
        // uniqueness reads the store
        let twin = Card()
        twin.word = "ok"
        #expect(try await !twin.saveIfValid(to: store))
        #expect(twin.errors.messages(for: "word") == ["has already been taken"])
    }

    @Test func uniquenessReadsRunOnThePoolNotTheCaller() async throws {
        let store = GateAdapter()
        let first = Card()
        first.word = "taken"
        try await first.save(to: store)
        let second = Card()
        second.word = "taken"
        #expect(try await !second.saveIfValid(to: store))
        #expect(second.errors.messages(for: "word") == ["has already been taken"])
        #expect(store.reads.withLock { $0 } == 2)  // one uniqueness count per save
        // 32 saves whose uniqueness reads block for 20 ms each: a task on the
        // cooperative pool still runs at once, so those reads do not hold its threads.
        store.delay.withLock { $0 = 0.02 }
        let finished = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for k in 0..<32 {
                group.addTask {
                    try await Card.create(["word": .string("word \(k)")], in: store)
                    finished.withLock { $0 += 1 }
                }
            }
            let probe = Task { finished.withLock { $0 } }
            let doneWhenProbeRan = await probe.value
            #expect(doneWhenProbeRan < 8, "the probe waited for uniqueness reads: \(doneWhenProbeRan) of 32 done")
            try await group.waitForAll()
        }
        #expect(try await Card.count(in: store) == 33)
    }

    @Test(arguments: AsyncStores.kinds) func aFailedWriteRestoresTheRecord(_ kind: String) async throws {
        let store = try AsyncStores.make(kind)
        let shelf = try await Shelf.create(["name": "a"], in: store)
        let id = try #require(shelf.id)
        try await Shelf.delete(id: id, in: store)  // the row goes behind the record's back
        shelf.name = "b"
        await #expect(throws: StoreError.self) { try await shelf.save() }
        #expect(shelf.isDirty && shelf.name == "b" && !shelf.isNew)
        #expect(try await Shelf.count(in: store) == 0)
    }

    @Test(arguments: AsyncStores.kinds) func destroyFollowsTheDeleteRules(_ kind: String) async throws {
        let store = try AsyncStores.make(kind)
        let shelf = try AsyncStores.seed(store)
        let other = try await Shelf.create(["name": "empty"], in: store)
        #expect(try await shelf.destroy())
        #expect(shelf.isNew)
        #expect(try await Book.count(in: store) == 0)  // .destroy cascaded
        #expect(try await Shelf.destroy(id: other.id ?? 0, in: store))
        #expect(try await !Shelf.destroy(id: 999, in: store))
        _ = try AsyncStores.seed(store)
        #expect(try await Shelf.destroyAll(in: store) == 1)
        #expect(try await Book.count(in: store) == 0)
    }

    @Test(arguments: AsyncStores.kinds) func bulkAndByIDWrites(_ kind: String) async throws {
        let store = try AsyncStores.make(kind)
        let shelf = try AsyncStores.seed(store)
        #expect(try await Book.query(in: store).where(\.pages > 300).updateAll(["pages": 1]) == 2)
        #expect(try await Book.query(in: store).where(\.pages == 1).count() == 2)
        let ubik = try #require(try await Book.query(in: store).where(\.title == "Ubik").first())
        #expect(try await Book.update(id: ubik.id ?? 0, set: ["title": "UBIK"], in: store))
        let changed = try await Book.update(id: ubik.id ?? 0, in: store) { $0.pages += 1 }
        #expect(changed?.pages == 203 && changed?.title == "UBIK")
        #expect(try await Book.delete(id: ubik.id ?? 0, in: store))
        #expect(try await Book.query(in: store).deleteAll() == 2)
        #expect(try await Shelf.deleteAll(in: store) == 1)
        #expect(shelf.id != nil)
    }

    @Test(arguments: AsyncStores.kinds) func childrenAndImports(_ kind: String) async throws {
        let store = try AsyncStores.make(kind)
        let shelf = try await Shelf.create(["name": "sf"], in: store)
        let dune = try await shelf.books.create(["title": "Dune", "pages": 412])
        #expect(dune.shelf === shelf)
        let loose = Book()
        loose.title = "Solaris"
        try await shelf.books.append(loose)
        #expect(try await shelf.books.count() == 2)
        #expect(try await shelf.books.remove(dune))
        #expect(try await Book.find(dune.id ?? 0, in: store)?["shelf_id"] == .null)
        let json = Data(#"[{"id": 50, "title": "Emma", "pages": 474}]"#.utf8)
        let report = try await Book.importJSON(json, into: store)
        #expect(report.inserted == [50])
        #expect(try await Book.find(50, in: store)?.title == "Emma")
    }

    @Test func changesAreAnnouncedOnceEach() async throws {
        let store = ArrayAdapter()
        let seen = Tally()
        let shelf = Shelf()
        shelf.name = "x"
        // Observe this record only: other tests save `Shelf`s in parallel.
        let token = NotificationCenter.default.addObserver(forName: .modelDidChange, object: shelf, queue: nil) { note in
            if note.userInfo?["change"] is ModelChange { seen.add() }
        }
        defer { NotificationCenter.default.removeObserver(token) }
        try await shelf.save(to: store)
        shelf.name = "y"
        try await shelf.save()
        try await shelf.delete()
        #expect(seen.value == 3)
    }

    @Test(arguments: ["array", "sqlite"]) func aCancelledTaskWritesNothing(_ kind: String) async throws {
        let store = try AsyncStores.make(kind)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            let shelf = Shelf()
            shelf.name = "never"
            do {
                try await shelf.save(to: store)
                return "saved"
            } catch is CancellationError {
                return shelf.isNew ? "cancelled" : "half"
            }
        }
        #expect(try await task.value == "cancelled")
        #expect(try await Shelf.count(in: store) == 0)
    }

    @Test func theMainActorSavesWithoutBlocking() async throws {
        let store = try AsyncStores.make("sqlite")
        let editor = await ShelfEditor(store: store)
        try await editor.add("one")
        try await editor.rename(to: "two")
        #expect(await editor.names == ["two"])
        #expect(try await Shelf.all(in: store).map(\.name) == ["two"])
    }
}

/// The async API takes the Swift values the synchronous one takes. Each call below is an
/// `await`: were it to resolve to a blocking synchronous overload, the build would warn
/// ("no 'async' operations occur within 'await' expression"), which fails CI.
@Suite struct AsyncSwiftValueTests {
    @Test(arguments: AsyncStores.kinds) func createChildrenAndUpdateAllTakeSwiftValues(_ kind: String) async throws {
        let store = try AsyncStores.make(kind)
        let name = "poetry"
        let shelf = try await Shelf.create(["name": name], in: store)
        let title = "Odes"
        let book = try await shelf.books.create(["title": title])
        #expect(book.title == "Odes" && book.id != nil)
        let renamed = "verse"
        #expect(try await Shelf.query(in: store).updateAll(["name": renamed]) == 1)
        #expect(try await Shelf.query(in: store).updateAll(\.name, to: "lyric") == 1)
        #expect(try await Shelf.query(in: store).updateAll([\Shelf.name: "epic"]) == 1)
        #expect(try await Shelf.find(shelf.id ?? -1, in: store)?.name == "epic")
    }
}

/// A write the store refuses leaves the record exactly as it was before the save.
@Suite struct AsyncFailedWriteTests {
    @Test(arguments: AsyncStores.kinds) func aFailedAsyncInsertRestoresThePreSaveState(_ kind: String) async throws {
        let store = try AsyncStores.make(kind)
        let first = try await Ticket.create(["code": "A1", "seat": 1], in: store)
        let twin = try Ticket(["id": .int(first.id ?? -1), "code": "A2", "seat": 2])  // the same id: the store refuses it
        await #expect(throws: (any Error).self) { try await twin.save(to: store) }
        #expect(twin.isNew && twin.id == first.id, "\(kind): still new, with the id it had")
        #expect(twin.createdAt == nil && twin.updatedAt == nil, "\(kind): timestamps as before the save")
        #expect(twin.isDirty && twin.code == "A2" && twin.seat == 2, "\(kind): the edits are kept")
        #expect(try await Ticket.count(in: store) == 1)
        #expect(try await Ticket.find(first.id ?? -1, in: store)?.code == "A1")
    }

    @Test(arguments: AsyncStores.kinds) func aFailedAsyncUpdateRestoresThePreSaveState(_ kind: String) async throws {
        let store = try AsyncStores.make(kind)
        let ticket = try await Ticket.create(["code": "B2"], in: store)
        let stamped = ticket.updatedAt
        #expect(try await Ticket.find(ticket.id ?? -1, in: store)?.delete() == true)  // gone underneath
        try await Task.sleep(for: .milliseconds(2))  // a new stamp would differ
        ticket.code = "B3"
        await #expect(throws: (any Error).self) { try await ticket.save() }
        #expect(ticket.updatedAt == stamped, "\(kind): updated_at as before the save")
        #expect(ticket.isDirty && ticket.code == "B3", "\(kind): the edit is kept, still unsaved")
    }
}
