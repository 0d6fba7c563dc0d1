import ArrayAdapter
import SQLiteAdapter
import Foundation

import Testing

/// `try await store.transaction { }`: atomic on every adapter, notifications after commit
/// only, the caller's thread never held.
@Suite struct AsyncTransactionTests {
    @Test(arguments: AsyncStores.kinds) func commitsTogether(_ kind: String) async throws {
        let store = try AsyncStores.make(kind)
        let names = try await store.transaction { _ in
            let shelf = try await Shelf.create(["name": "new"], in: store)
            let book = try await shelf.books.create(["title": "Dune", "pages": 412])
            try Self.createSynchronously("sync inside", in: store)  // synchronous calls work too
            return [shelf.name, book.title]
        }
        #expect(names == ["new", "Dune"])
        #expect(try await Book.count(in: store) == 2)
        #expect(try await Shelf.count(in: store) == 1)
    }

    @Test(arguments: AsyncStores.kinds) func aThrowingBodyRollsEverythingBack(_ kind: String) async throws {
        let store = try AsyncStores.make(kind)
        let kept = try await Shelf.create(["name": "kept"], in: store)
        let keptID = try #require(kept.id)
        struct Stop: Error {}
        await #expect(throws: Stop.self) {
            try await store.transaction { _ in
                let shelf = try #require(try await Shelf.find(keptID, in: store))
                shelf.name = "changed"
                try await shelf.save()
                try await Shelf.create(["name": "extra"], in: store)
                throw Stop()
            }
        }
        #expect(try await Shelf.all(in: store).map(\.name) == ["kept"])
    }

    @Test func savepointsNestSynchronouslyAndAsyncNestingIsATypedError() async throws {
        let store = ArrayAdapter()
        try await store.transaction { _ in
            try await Shelf.create(["name": "outer"], in: store)
            Self.failingSavepoint(in: store)
            let error = await #expect(throws: StoreError.self) {
                try await store.transaction { _ in try await Shelf.count(in: store) }
            }
            #expect(error?.kind == .invalidRequest)
        }
        #expect(try await Shelf.all(in: store).map(\.name) == ["outer"])
    }

    @Test func notificationsComeAfterCommitAndNeverAfterRollback() async throws {
        let store = ArrayAdapter()
        let seen = Guarded<[String]>([])
        let token = NotificationCenter.default.addObserver(forName: .modelDidChange, object: nil, queue: nil) { note in
            guard let change = note.userInfo?["change"] as? ModelChange, change.modelName == "Shelf" else { return }
            // other tests run at the same time: keep this test's records only
            guard let name = change.attributes["name"]?.stringValue, name.hasPrefix("note-") else { return }
            seen.withLock { $0.append(name) }
        }
        defer { NotificationCenter.default.removeObserver(token) }
        try await store.transaction { _ in
            try await Shelf.create(["name": "note-a"], in: store)
            try await Shelf.create(["name": "note-b"], in: store)
            #expect(seen.withLock { $0 }.isEmpty)  // not before the commit
        }
        #expect(seen.withLock { $0 } == ["note-a", "note-b"])
        _ = try? await store.transaction { _ in
            try await Shelf.create(["name": "note-c"], in: store)
            throw CancellationError()
        }
        #expect(seen.withLock { $0 } == ["note-a", "note-b"])
    }

    @Test func aCancelledTaskNeverBegins() async throws {
        let store = ArrayAdapter()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await store.transaction { _ in try await Shelf.create(["name": "no"], in: store).name }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try await Shelf.count(in: store) == 0)
    }

    /// How many async transactions wait for `store` (an ArrayAdapter or SQLiteAdapter).
    static func suspendedTransactions(of store: any PersistenceAdapter) -> @Sendable () -> Int {
        { (store as? ArrayAdapter)?.suspendedTransactions ?? (store as? SQLiteAdapter)?.suspendedTransactions ?? -1 }
    }

    /// Starts a synchronous transaction on a thread of its own that holds `store` until the
    /// returned flag is set; returns once it holds it.
    static func holdTheStore(_ store: any PersistenceAdapter) async throws -> Guarded<Bool> {
        let holding = Guarded(false)
        let release = Guarded(false)
        let holder = Thread {
            _ = try? store.transaction {
                holding.withLock { $0 = true }
                while !release.withLock({ $0 }) { usleep(2_000) }
            }
        }
        holder.start()
        while !holding.withLock({ $0 }) { try await _Concurrency.Task.sleep(for: .milliseconds(2)) }
        return release
    }

    /// Cancelled while it waits for another transaction to release the store, an async
    /// transaction ends with `CancellationError` and never runs its body, though the store
    /// comes free.
    @Test(arguments: ["array", "sqlite"]) func aTransactionCancelledWhileWaitingForTheStoreNeverRunsItsBody(_ kind: String)
        async throws
    {
        let store = try AsyncStores.make(kind)
        let suspended = Self.suspendedTransactions(of: store)
        let release = try await Self.holdTheStore(store)
        let ran = Guarded(false)
        let waiter = Task {
            try await store.transaction { _ in
                ran.withLock { $0 = true }
                _ = try await Shelf.create(["name": "cancelled"], in: store)
            }
        }
        var waited = 0
        while suspended() < 1, waited < 10_000 {  // bounded: 10 s
            try await _Concurrency.Task.sleep(for: .milliseconds(5))
            waited += 5
        }
        #expect(suspended() == 1, "the transaction waits for the store")
        waiter.cancel()
        release.withLock { $0 = true }
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(!ran.withLock { $0 }, "the body never ran")
        #expect(suspended() == 0)
        #expect(try await Shelf.count(in: store) == 0)
    }

    @Test(arguments: ["array", "sqlite"]) func concurrentTransfersKeepTheTotal(_ kind: String) async throws {
        let store = try AsyncStores.make(kind)
        let ids = try (0..<4).map { k in try #require(try Book.create(["title": "\(k)", "pages": 100], in: store).id) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for k in 0..<16 {
                group.addTask {
                    try await store.transaction { _ in
                        let from = try #require(try await Book.find(ids[k % 4], in: store))
                        let to = try #require(try await Book.find(ids[(k + 1) % 4], in: store))
                        from.pages -= 7
                        try await from.save()
                        await Task.yield()  // other transactions wait for the store, not for us
                        to.pages += 7
                        try await to.save()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await Book.query(in: store).sum("pages") == .int(400))
    }

    @Test func theCallersThreadIsFreeWhileABodyHoldsTheStore() async throws {
        let store = try AsyncStores.make("sqlite")
        try await Shelf.create(["name": "first"], in: store)
        let inside = Guarded(false), released = Guarded(false)
        async let transaction: Void = store.transaction { _ in
            try await Shelf.create(["name": "slow"], in: store)
            inside.withLock { $0 = true }
            // Holds the store until the test has looked (suspended, not blocking a thread).
            while !released.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
        }
        while !inside.withLock({ $0 }) { await Task.yield() }
        // The main actor runs while the transaction is open; a read sees the last commit.
        let seen = await MainActor.run { "free" }
        #expect(seen == "free")
        #expect(try await Shelf.count(in: store) == 1)
        released.withLock { $0 = true }
        try await transaction
        #expect(try await Shelf.count(in: store) == 2)
    }

    /// Async transactions waiting for a store another transaction holds are suspended,
    /// not parked on threads: all 16 are counted as suspended waiters of the store's lock.
    @Test(arguments: ["array", "sqlite"]) func waitingForTheStoreSuspends(_ kind: String) async throws {
        let store = try AsyncStores.make(kind)
        let suspended = Self.suspendedTransactions(of: store)
        let release = try await Self.holdTheStore(store)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for k in 0..<16 {
                group.addTask {
                    try await store.transaction { _ in _ = try await Shelf.create(["name": .string("waiter \(k)")], in: store) }
                }
            }
            var waited = 0
            while suspended() < 16, waited < 5_000 {  // at most 5 s
                try await _Concurrency.Task.sleep(for: .milliseconds(5))
                waited += 5
            }
            #expect(suspended() == 16, "suspended waiters while another transaction holds the store")
            release.withLock { $0 = true }
            try await group.waitForAll()
        }
        #expect(suspended() == 0)
        #expect(try await Shelf.count(in: store) == 16)
    }

    /// Child tasks write into one transaction level at once, past its first sweep: each
    /// keeps a quarter of its records until it ends and drops the rest as it goes. The
    /// level's list changes under its lock from several threads while records end (Thread
    /// Sanitizer runs this suite).
    @Test(arguments: [true, false]) func concurrentWritersInOneLevelCommitOrRollBackTogether(_ commits: Bool) async throws {
        let store = ArrayAdapter()
        struct Stop: Error {}
        let writers = 4, each = 400
        var keptCount = 0
        do {
            keptCount = try await store.transaction { _ in
                let kept = try await withThrowingTaskGroup(of: Int.self) { group in
                    for writer in 0..<writers {
                        group.addTask {
                            var kept: [Shelf] = []
                            for k in 0..<each {
                                let shelf = try await Shelf.create(["name": .string("w\(writer)-\(k)")], in: store)
                                if k % 4 == 0 { kept.append(shelf) }
                            }
                            return kept.filter { !$0.isNew }.count
                        }
                    }
                    return try await group.reduce(0, +)
                }
                if !commits { throw Stop() }
                return kept
            }
        } catch is Stop {}
        #expect(try await Shelf.count(in: store) == (commits ? writers * each : 0))
        #expect(keptCount == (commits ? writers * each / 4 : 0))
    }

    @Test func recordsMadeInsideComeOut() async throws {
        let store = ArrayAdapter()
        let shelf = try await store.transaction { _ in try await Shelf.create(["name": "out"], in: store) }
        shelf.name = "edited"
        try await shelf.save()
        #expect(try await Shelf.find(shelf.id ?? 0, in: store)?.name == "edited")
    }

    @Test(arguments: AsyncStores.kinds) func callsFromOtherIsolationsJoinTheTransaction(_ kind: String) async throws {
        let store = try AsyncStores.make(kind)
        _ = try AsyncStores.seed(store)
        struct Stop: Error {}
        await #expect(throws: Stop.self) {
            try await store.transaction { _ in
                // A nonisolated async function runs off the transaction's executor: its
                // store calls and record writes join the transaction.
                #expect(try await Self.shortenBooks(in: store) == 3)
                #expect(try await Book.query(in: store).where(\.pages == 1).count() == 3)
                try await Self.renameFirstShelf(in: store)
                #expect(try await Shelf.query(in: store).where(\.name == "renamed").count() == 1)
                throw Stop()
            }
        }
        #expect(try await Book.query(in: store).where(\.pages == 1).count() == 0)  // rolled back
        #expect(try await Shelf.query(in: store).where(\.name == "renamed").count() == 0)
        try await store.transaction { _ in try await Self.renameFirstShelf(in: store) }
        #expect(try await Shelf.query(in: store).where(\.name == "renamed").count() == 1)  // committed
    }

    @Test(arguments: AsyncStores.kinds) func aMainActorRecordWrittenInsideIsRestoredOnTheMainActor(_ kind: String) async throws {
        let store = try AsyncStores.make(kind)
        let editor = await ShelfEditor(store: store)
        try await editor.add("before")
        struct Stop: Error {}
        await #expect(throws: Stop.self) {
            try await store.transaction { _ in
                try await editor.renameAll(to: "inside")
                throw Stop()
            }
        }
        #expect(try await Shelf.all(in: store).map(\.name) == ["before"])
        #expect(await editor.names == ["inside"])  // the unsaved state from before the write
        #expect(await editor.hasChanges)
    }

    nonisolated static func shortenBooks(in store: any PersistenceAdapter) async throws -> Int {
        try await Book.query(in: store).updateAll(["pages": 1])
    }

    nonisolated static func renameFirstShelf(in store: any PersistenceAdapter) async throws {
        let shelf = try await Shelf.query(in: store).first()
        shelf?.name = "renamed"
        try await shelf?.save()
    }

    static func createSynchronously(_ title: String, in store: any PersistenceAdapter) throws {
        try Book.create(["title": .string(title), "pages": 1], in: store)
    }

    /// A synchronous savepoint that rolls back.
    static func failingSavepoint(in store: any PersistenceAdapter) {
        struct Undo: Error {}
        _ = try? store.transaction {
            try Shelf.create(["name": "inner"], in: store)
            throw Undo()
        }
    }
}
