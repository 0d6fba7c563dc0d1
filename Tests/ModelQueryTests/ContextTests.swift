import ArrayAdapter
import Foundation
import Testing

/// Inserts an unsaved assignee ("a") linked to an unsaved board ("b"), the child first.
@discardableResult
func insertUnsavedAssigneeOnBoard(into context: ModelContext) throws -> (Board, Assignee) {
    let board = Board()
    board.title = "b"
    let assignee = Assignee()
    assignee.name = "a"
    assignee.board = board
    try context.insert(assignee)
    try context.insert(board)
    return (board, assignee)
}

/// ModelContext behaviour the conformance group (run on every adapter) does not cover:
/// tasks, memory, threads, files that do not load, child deletes.
@Suite struct ContextTests {
    @Test func unitOfWorkLinksUnsavedParents() throws {
        try ModelStore.using(ArrayAdapter()) {
            let context = ModelContext()
            let (board, assignee) = try insertUnsavedAssigneeOnBoard(into: context)
            try context.save()
            #expect(board.id != nil)
            #expect(try Assignee.find(assignee.id ?? -1)?.load(\.board)?.id == board.id)
        }
    }

    @Test func theSameIDInAnotherStoreIsAnotherRecord() throws {
        let first = ArrayAdapter(), second = ArrayAdapter()
        try Board.create(["title": "first"], in: first)
        try Board.create(["title": "second"], in: second)
        let context = ModelContext()
        try context.run {
            let a = try Board.find(1, in: first), b = try Board.find(1, in: second)
            #expect(a?.title == "first" && b?.title == "second")
            #expect(try Board.find(1, in: first) === a, "the first store's record is the held one")
            #expect(try Board.all(in: second).first?.title == "second")
        }
    }

    /// A task started inside a synchronous scope opened outside any task inherits its
    /// binding, whose owner is the scope's thread. Run on that same thread, the task still
    /// sees no context: it is told apart by being a task, not only by its thread.
    @Test func aTaskOnTheScopesOwnThreadSeesNoContext() {
        let seen = Locked<[Bool]>([])
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let executor = ThreadTaskExecutor(name: "ContextTests.sameThread")
            let context = ModelContext()
            context.run {
                seen.withLock { $0.append(ModelContext.current === context) }
                Task(executorPreference: executor) {
                    seen.withLock { $0.append(ModelContext.current == nil) }
                    executor.finish()
                }
            }
            executor.run()  // the task runs here, on the thread that opened the scope
            done.signal()
        }
        thread.start()
        done.wait()
        #expect(seen.withLock { $0 } == [true, true])
    }

    @Test func tasksStartedInsideAScopeSeeNoContext() async throws {
        let store = ArrayAdapter()
        let stored = try await Board.create(["title": "t"], in: store)
        let id = stored.id ?? -1
        let context = ModelContext()
        try await ModelStore.using(store) {
            try await context.run {
                #expect(ModelContext.current === context)
                let first = try await Board.find(id)
                let second = try await Board.find(id)
                #expect(first != nil && first === second, "async finds in a scope go through the context")
                let inChild = await Task { ModelContext.current == nil }.value
                #expect(inChild, "an unstructured task inherits no context")
                let inGroup = await withTaskGroup(of: Bool.self) { group in
                    group.addTask { ModelContext.current == nil }
                    return await group.next() ?? false
                }
                #expect(inGroup, "a child task inherits no context")
                let temporary = await ModelContext.withTemporary { scratch in
                    await Task.yield()
                    return scratch.parent === context && ModelContext.current === scratch
                }
                #expect(temporary, "an async temporary context is a child of the current one")
            }
        }
        #expect(ModelContext.current == nil)
    }

    @Test func unchangedRecordsAreHeldWeaklyAndChangedOnesStrongly() throws {
        try ModelStore.using(ArrayAdapter()) {
            for k in 0..<3 { try Board.create(["title": .string("b\(k)")]) }
            let context = ModelContext()
            try context.run {
                var changed: Board? = try Board.find(1)
                changed?.title = "changed"
                _ = try Board.all()
                #expect(context.count == 1, "only the changed record outlives its last reference (\(context.count))")
                changed = nil
                #expect(context.hasChanges, "the change is still pending")
                try context.save()
                #expect(context.count == 0, "after the save nothing holds it")
                #expect(try Board.find(1)?.title == "changed")
            }

            let cache = ModelContext(retainsRecords: true)
            try cache.run { _ = try Board.all() }
            #expect(cache.count == 3, "a retaining context keeps what it loaded")
            let held = try cache.run { try Board.find(2) }
            held?.title = "edited"
            cache.evictUnchanged()
            #expect(cache.count == 1, "evictUnchanged keeps pending work")
            if let held { cache.evict(held) }
            #expect(cache.count == 0 && !cache.hasChanges, "evict drops a record and its change")
        }
    }

    @Test func clearAllClearsEveryContextOfItsGroup() throws {
        try ModelStore.using(ArrayAdapter()) {
            for k in 0..<3 { try Board.create(["title": .string("b\(k)")]) }
            // Made outside the group: stands for a test running beside this one.
            let beside = ModelContext(retainsRecords: true)
            try beside.run { _ = try Board.all() }
            try ModelContext.withPrivateContexts {
                let cache = ModelContext(retainsRecords: true)
                let other = ModelContext(retainsRecords: true)
                try cache.run { _ = try Board.all() }
                let pending = try other.run { try Board.find(2) }
                pending?.title = "unsaved"
                ModelContext.clearAll()
                #expect(cache.count == 0 && other.count == 0 && !other.hasChanges, "clearAll clears every context")
            }
            #expect(beside.count == 3, "a context outside the private group keeps its records")
        }
    }

    @Test func commitsFromOtherThreadsWaitForTheContextsUser() throws {
        let store = ArrayAdapter()
        try ModelStore.using(store) {
            let stored = try Board.create(["title": "before"])
            let id = stored.id ?? -1
            let context = ModelContext()
            let mine = try context.run { try Board.find(id) }
            saveTitle("from another thread", id: id, in: store)
            #expect(mine?.title == "before", "another thread's commit does not touch the context's records")
            context.mergeChanges()
            #expect(mine?.title == "from another thread", "mergeChanges() applies it")
        }
    }

    /// A transaction's commit is delivered as a batch: each of its changes, in order, to
    /// each context that holds the records (here two other contexts, one of which holds
    /// only some of them).
    @Test func everyChangeOfACommitReachesEveryOtherContext() throws {
        let store = ArrayAdapter()
        try ModelStore.using(store) {
            let ids = try (0..<5).map { try Board.create(["title": .string("b\($0)")]).id ?? -1 }
            let all = ModelContext()
            let some = ModelContext()
            let held = try all.run { try ids.map { try Board.find($0) } }
            let part = try some.run { try ids.suffix(2).map { try Board.find($0) } }
            try store.transaction {
                for (k, id) in ids.enumerated() {
                    let board = try #require(try Board.find(id))
                    board.title = "first \(k)"
                    try board.save()
                    board.title = "second \(k)"
                    try board.save()
                }
            }
            #expect(held.map { $0?.title } == (0..<5).map { "second \($0)" })
            #expect(part.map { $0?.title } == ["second 3", "second 4"])
        }
    }

    @Test func commitsToAnotherStoreAreAboutAnotherRecord() throws {
        let first = ArrayAdapter(), second = ArrayAdapter()
        let id = try Board.create(["title": "first"], in: first).id ?? -1
        #expect(try Board.create(["title": "second"], in: second).id == id)  // the same id, elsewhere
        let context = ModelContext()
        let mine = try context.run { try Board.find(id, in: first) }
        let other = try #require(try Board.find(id, in: second))
        other.title = "saved on this thread"
        try other.save()
        saveTitle("saved on another thread", id: id, in: second)
        context.mergeChanges()
        #expect(mine?.title == "first")
    }

    @Test func threadsWithTheirOwnContexts() throws {
        let store = ArrayAdapter()
        let ids = try (0..<8).map { k in try Board.create(["title": .string("t\(k)")], in: store).id ?? -1 }
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            let context = ModelContext()
            ModelStore.using(store) {
                context.run {
                    for round in 0..<50 {
                        guard let board = try? Board.find(ids[worker]), board === (try? Board.find(ids[worker])) else {
                            Testing.Issue.record("one instance per record in a thread's context")
                            return
                        }
                        board.title = "w\(worker)-\(round)"
                        _ = try? Board.where(\.title == "nothing").all()
                        do { try context.save() } catch { Testing.Issue.record("save: \(error)") }
                    }
                }
            }
        }
        for (worker, id) in ids.enumerated() { #expect(try Board.find(id, in: store)?.title == "w\(worker)-49") }
    }

    @Test func filesThatDoNotLoadAreTypedErrors() throws {
        let store = ArrayAdapter()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ctx-bad-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try ModelStore.using(store) {
            let context = ModelContext()
            let board = Board()
            board.title = "draft"
            try context.insert(board)
            try context.write(to: url)
        }
        let good = try Data(contentsOf: url)
        func load(_ models: [any ModelProtocol.Type] = [Board.self]) throws -> ModelContext {
            try ModelContext(contentsOf: url, models: models, store: store)
        }
        #expect(try load().count == 1)
        #expect(throws: ContextError.self) { try load([Comment.self]) }
        let text = String(decoding: good, as: UTF8.self)
        let variants = [
            Data(good.prefix(good.count / 2)), Data(), Data("[]".utf8),
            Data(text.replacingOccurrences(of: "\"title\"", with: "\"heading\"").utf8),
            Data(text.replacingOccurrences(of: "{\"s\":\"draft\"}", with: "{\"i\":5}").utf8),
            Data(text.replacingOccurrences(of: "{\"s\":\"draft\"}", with: "{\"q\":5}").utf8),
        ]
        for variant in variants {
            try variant.write(to: url)
            #expect(throws: ContextError.self) { try load() }
        }
        try FileManager.default.removeItem(at: url)
        #expect(throws: ContextError.self) { try load() }
    }

    @Test func aChildsDeleteReachesTheStoreThroughItsParent() throws {
        try ModelStore.using(ArrayAdapter()) {
            let board = try Board.create(["title": "doomed"])
            let parent = ModelContext()
            try parent.run {
                let child = ModelContext(parent: parent)
                try child.run {
                    guard let mine = try Board.find(board.id ?? -1) else {
                        Testing.Issue.record("loads")
                        return
                    }
                    try child.delete(mine)
                    #expect(try Board.find(board.id ?? -1) == nil)
                    try child.save()
                }
                #expect(try Board.find(board.id ?? -1) == nil, "the parent now has the delete pending")
                let another = ModelContext(parent: parent)
                let rows = try another.run { try Board.all() }
                #expect(rows.map(\.title) == ["doomed"], "a child's query of a row its parent deleted loads the row")
                #expect(try Board.count() == 1, "the store still has the record")
                try parent.save()
            }
            #expect(try Board.count() == 0)
        }
    }

    @Test func aDecliningHookFailsTheWholeSave() throws {
        try ModelStore.using(ArrayAdapter()) {
            let board = try Board.create(["title": "b"])
            let vetoed = try board.assignees.create(["name": "v", "veto_destroy": true])
            let context = ModelContext()
            let fresh = Board()
            fresh.title = "fresh"
            try context.insert(fresh)
            try context.insert(vetoed)
            try context.delete(vetoed)
            #expect(throws: ModelError.self) { try context.save() }
            #expect(try Board.count() == 1, "the insert was rolled back with the declined delete")
            #expect(fresh.isNew)
        }
    }
}

/// Sets a stored board's title and saves it, on a new thread; returns when it is done.
private func saveTitle(_ title: String, id: Int64, in store: ArrayAdapter) {
    let done = DispatchSemaphore(value: 0)
    let runner = Thread {
        let board = try? Board.find(id, in: store)
        board?.title = title
        try? board?.save()
        done.signal()
    }
    runner.start()
    done.wait()
}
