import ArrayAdapter
import Foundation
@testable import ModelCore
import TestSupport
import Testing

/// A model only this file writes, so change streams from parallel suites never mix in.
final class UndoNote: Model {
    @Column var text: String = ""
    init() {}
}

/// What an open transaction keeps to undo record writes: the records hold it, the levels
/// hold the records weakly, and it ends with the level.
@Suite("Transaction undo", .runsOffThePool)
struct TransactionUndoTests {
    @Test func aRecordDroppedInsideATransactionIsFreedBeforeTheCommit() throws {
        try withStore { (store: ArrayAdapter) throws in
            weak var dropped: Task?
            weak var changed: Task?
            try store.transaction {
                do {
                    let task = Task(name: "imported")
                    try task.save()
                    dropped = task
                    let kept = try #require(try Task.find(task.id ?? 0))
                    kept.name = "renamed"
                    try kept.save()
                    changed = kept
                }
                // Nothing is left to put back for records nobody holds.
                #expect(dropped == nil && changed == nil)
            }
            #expect(try Task.all().map(\.name) == ["renamed"])
        }
    }

    @Test func aDroppedRecordIsSkippedByTheRollbackAndTheStoreStillRollsBack() throws {
        try withStore { (store: ArrayAdapter) throws in
            let held = Task(name: "held")
            #expect(throws: Boom.self) {
                try store.transaction {
                    try Task(name: "dropped").save()
                    try held.save()
                    throw Boom()
                }
            }
            #expect(try Task.count() == 0)
            #expect(held.isNew && held.id == nil && held.__undo.isEmpty)
        }
    }

    @Test func theEarliestStateOfEachLevelIsTheOneRestored() throws {
        try withStore { (store: ArrayAdapter) throws in
            let task = Task(name: "a")
            try task.save()
            #expect(throws: Boom.self) {
                try store.transaction {
                    task.name = "b"
                    try task.save()
                    task.name = "c"
                    try task.save()
                    // A committed savepoint: its entry goes to the outer level, which
                    // already holds an earlier state.
                    try store.transaction {
                        task.name = "d"
                        try task.save()
                    }
                    #expect(task.__undo.count == 1)
                    do {
                        try store.transaction {
                            task.name = "e"
                            try task.save()
                            task.name = "f"
                            try task.save()
                            throw Boom()
                        }
                        Issue.record("the savepoint did not throw")
                    } catch is Boom {}
                    // Back to just before the savepoint's first save: "e" assigned, "d" saved.
                    #expect(task.name == "e" && task.isDirty && task.__undo.count == 1)
                    throw Boom()
                }
            }
            // Back to just before the transaction's first save: "b" assigned, "a" saved.
            #expect(task.name == "b" && task.isDirty && task.__undo.isEmpty)
            #expect(try Task.find(1)?.name == "a")
        }
    }

    @Test func aRecordFirstWrittenInACommittedSavepointIsRestoredByTheOuterRollback() throws {
        try withStore { (store: ArrayAdapter) throws in
            let task = Task(name: "new")
            #expect(throws: Boom.self) {
                try store.transaction {
                    try store.transaction { try task.save() }
                    #expect(task.id == 1 && task.__undo.count == 1)
                    throw Boom()
                }
            }
            #expect(task.isNew && task.id == nil && task.name == "new" && task.__undo.isEmpty)
        }
    }

    @Test func aCommitLeavesNoUndoOnTheRecords() throws {
        try withStore { (store: ArrayAdapter) throws in
            let tasks = (0..<3).map { Task(name: "t\($0)") }
            try store.transaction {
                for task in tasks { try task.save() }
                try store.transaction { tasks[0].name = "changed"; try tasks[0].save() }
                #expect(tasks.allSatisfy { $0.__undo.count == 1 })
            }
            #expect(tasks.allSatisfy { $0.__undo.isEmpty && !$0.isNew })
        }
    }

    @Test func anAsyncRollbackRestoresTheRecordsItWrote() async throws {
        let store = ArrayAdapter()
        // Only the transaction's body touches it until the transaction has ended.
        nonisolated(unsafe) let held = UndoNote()
        held.text = "held"
        do {
            try await store.transaction { _ in
                try await held.save(to: store)
                let dropped = UndoNote()
                try await dropped.save(to: store)
                throw Boom()
            }
            Issue.record("the transaction did not throw")
        } catch is Boom {}
        #expect(held.isNew && held.id == nil && held.__undo.isEmpty)
        #expect(try await UndoNote.count(in: store) == 0)
    }

    @Test func aListenerHearsTheChangesMadeWhileItListens() async throws {
        let store = ArrayAdapter()
        var changes: AsyncStream<ModelChange>?
        try store.transaction {
            let before = UndoNote()
            before.text = "before"
            try before.save(to: store)
            // The plain stream (no filtering task): its buffer is filled at the commit.
            changes = ModelNotifications.changes()
            let after = UndoNote()
            after.text = "after"
            try after.save(to: store)
        }
        var iterator = try #require(changes).makeAsyncIterator()
        var first: ModelChange?
        while let change = await iterator.next() {
            if change.isAbout(UndoNote.self) {
                first = change
                break
            }
        }
        #expect(first?.attributes["text"] == "after" && first?.action == .insert)
    }
}
