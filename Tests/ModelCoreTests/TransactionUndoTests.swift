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

/// How many undo entries the open transaction on `store` holds for `record`.
func undoCount(_ record: ModelObject, in store: any PersistenceAdapter) -> Int {
    TransactionHandle.current(for: ObjectIdentifier(store))?.undoCount(of: record) ?? 0
}

/// What an open transaction keeps to undo record writes: the records hold it, the levels
/// list the records without keeping them alive for long, and it ends with the level.
@Suite("Transaction undo", .runsOffThePool)
struct TransactionUndoTests {
    @Test func aRecordDroppedInsideATransactionIsFreedBeforeTheCommit() throws {
        try withStore { (store: ArrayAdapter) throws in
            weak var dropped: Task?
            weak var changed: Task?
            try store.transaction {
                var id: Int64 = 0
                do {
                    let task = Task(name: "imported")
                    try task.save()
                    dropped = task
                    id = task.id ?? 0
                }
                do {
                    let kept = try #require(try Task.find(id))
                    kept.name = "renamed"
                    // The level lets go of the first record here, at the write after it.
                    try kept.save()
                    changed = kept
                }
                #expect(dropped == nil && changed != nil)
                try Task(name: "third").save()
                // Nothing is left to put back for records nobody holds.
                #expect(dropped == nil && changed == nil)
            }
            #expect(try Task.all().map(\.name) == ["renamed", "third"])
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
            #expect(held.isNew && held.id == nil && held.__undoLevel.load(ordering: .relaxed) == 0)
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
                    #expect(undoCount(task, in: store) == 1)
                    // The record names this level again: writing it here makes no undo.
                    try task.save()
                    #expect(undoCount(task, in: store) == 1)
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
                    #expect(task.name == "e" && task.isDirty && undoCount(task, in: store) == 1)
                    // The rolled-back savepoint named it last; the rollback named this level again.
                    try task.save()
                    #expect(undoCount(task, in: store) == 1)
                    throw Boom()
                }
            }
            // Back to just before the transaction's first save: "b" assigned, "a" saved.
            #expect(task.name == "b" && task.isDirty && task.__undoLevel.load(ordering: .relaxed) == 0)
            #expect(try Task.find(1)?.name == "a")
        }
    }

    /// A transaction on a second store, inside the first one's, names the record last:
    /// the first level then takes a second undo of it, and its rollback restores the
    /// earliest state last.
    @Test func writesInterleavedOnTwoStoresAreUndoneToTheEarliestState() throws {
        let first = ArrayAdapter(), second = ArrayAdapter()
        let note = UndoNote()
        note.text = "x"
        #expect(throws: Boom.self) {
            try first.transaction {
                try note.save(to: first)
                try note.delete()
                #expect(undoCount(note, in: first) == 1)
                try second.transaction {
                    note.text = "y"
                    try note.save(to: second)
                }
                try note.delete()
                note.text = "z"
                try note.save(to: first)
                #expect(undoCount(note, in: first) == 2)
                throw Boom()
            }
        }
        #expect(note.text == "x" && note.isNew && note.id == nil)
        #expect(try UndoNote.count(in: first) == 0)
        #expect(try UndoNote.count(in: second) == 0)
    }

    @Test func aRecordFirstWrittenInACommittedSavepointIsRestoredByTheOuterRollback() throws {
        try withStore { (store: ArrayAdapter) throws in
            let task = Task(name: "new")
            #expect(throws: Boom.self) {
                try store.transaction {
                    try store.transaction { try task.save() }
                    #expect(task.id == 1 && undoCount(task, in: store) == 1)
                    throw Boom()
                }
            }
            #expect(task.isNew && task.id == nil && task.name == "new" && task.__undoLevel.load(ordering: .relaxed) == 0)
        }
    }

    /// A new record's baseline that every new record shares is kept whole by the undo of
    /// its insert (it costs nothing to hold), so a rollback gives the record that shared
    /// row back rather than a copy of its own.
    @Test func aRolledBackInsertGetsBackTheBaselineNewRecordsShare() throws {
        try withStore { (store: ArrayAdapter) throws in
            _ = Task(name: "first")  // the first new record sets the row the next ones share
            let shared = Task(name: "second").__baseline
            let task = Task(name: "new")
            #expect(ModelValue.sharesStorage(task.__baseline, shared))
            let changes = task.changes
            #expect(throws: Boom.self) {
                try store.transaction {
                    try task.save()
                    throw Boom()
                }
            }
            #expect(task.isNew && task.id == nil && task.changes == changes)
            #expect(ModelValue.sharesStorage(task.__baseline, shared))
        }
    }

    /// The row an undo keeps: nothing when unchanged, the nil id of an insert, the one
    /// changed slot, the changed slots while they are at most half the row, else the whole
    /// row; and it gives back
    /// exactly the row before the write.
    @Test func anUndoRowKeepsTheSmallerFormAndRestoresTheRowBefore() {
        let values: [ModelValue] = [.null, .int(1), .int(2), .double(-0.0), .double(0), .string("a"), .string("b"), .bool(true)]
        var generator = SystemRandomNumberGenerator()
        var problems: [String] = []
        for _ in 0..<3_000 {
            let count = Int.random(in: 1...9, using: &generator)
            let written = (0..<count).map { _ in values.randomElement(using: &generator) ?? .null }
            var before = written
            for k in before.indices where Int.random(in: 0..<3, using: &generator) == 0 {
                before[k] = values.randomElement(using: &generator) ?? .null
            }
            let changed = before.indices.filter { before[$0] != written[$0] }
            let row = RecordUndo.Row(before, against: written)
            let restored = row.applied(to: written)
            if restored != before {
                problems.append("\(before) against \(written) restored \(restored)")
            }
            switch row {
            case .same: if !changed.isEmpty { problems.append("same for \(changed)") }
            case .nilID: if changed != [0] || !before[0].isNull { problems.append("nilID for \(changed)") }
            case .one(let slot, _):
                if [slot] != changed || changed.count > count / 2 || changed == [0] && before[0].isNull {
                    problems.append("one \(slot) for \(changed) of \(count)")
                }
            case .diff(let diff):
                if diff.map(\.0) != changed || changed.count > count / 2 || changed.count < 2 {
                    problems.append("diff \(diff.map(\.0)) for \(changed) of \(count)")
                }
            case .full: if changed.count <= count / 2 { problems.append("full for \(changed) of \(count)") }
            }
        }
        // One storage: no comparison, nothing kept.
        let shared: [ModelValue] = [.int(1), .string("x")]
        if case .same = RecordUndo.Row(shared, against: shared) {} else { problems.append("shared storage not same") }
        // Rows of different widths keep the whole row.
        if case .full = RecordUndo.Row([.int(1)], against: [.int(1), .null]) {} else { problems.append("widths not full") }
        #expect(problems.count == 0, "\(problems.prefix(5))")
    }

    /// A committed savepoint's undo of a record the level around it already holds is
    /// dropped: one undo a record, and the commit keeps the saves.
    @Test func aCommittedSavepointLeavesOneUndoARecord() throws {
        try withStore { (store: ArrayAdapter) throws in
            let tasks = (0..<3).map { Task(name: "t\($0)") }
            try store.transaction {
                for task in tasks { try task.save() }
                try store.transaction { tasks[0].name = "changed"; try tasks[0].save() }
                #expect(tasks.allSatisfy { undoCount($0, in: store) == 1 })
            }
            #expect(tasks.allSatisfy { !$0.isNew })
            #expect(try Task.find(1)?.name == "changed")
        }
    }

    /// The undo keeps the record's home store only when it was not the transaction's own
    /// (the usual update names the transaction's store instead): a rollback puts back
    /// either one.
    @Test func aRollbackPutsBackTheHomeStoreWhetherItWasTheTransactionsOrAnother() throws {
        let (home, other) = (ArrayAdapter(), ArrayAdapter())
        let (stays, moves) = (UndoNote(), UndoNote())
        stays.text = "stays"
        try stays.save(to: home)
        try moves.save(to: home)
        #expect(throws: Boom.self) {
            try home.transaction {
                stays.text = "changed"
                try stays.save()
                throw Boom()
            }
        }
        // As before the write: the change unsaved, the record still the one in `home`.
        #expect(stays._isHome(home) && stays.text == "changed" && stays.isDirty)
        try stays.save()
        #expect(try UndoNote.find(stays.id ?? 0, in: home)?.text == "changed")

        // A record deleted from `home` is new again but keeps its home until saved elsewhere.
        try moves.delete()
        #expect(throws: Boom.self) {
            try other.transaction {
                try moves.save(to: other)
                #expect(moves._isHome(other) && !moves.isNew)
                throw Boom()
            }
        }
        #expect(moves._isHome(home) && moves.isNew)
        #expect(try UndoNote.count(in: other) == 0)
    }

    /// The same for an async transaction's rollback.
    @Test func anAsyncRollbackPutsBackTheHomeStoreWhetherItWasTheTransactionsOrAnother() async throws {
        let (home, other) = (ArrayAdapter(), ArrayAdapter())
        // Only this test's bodies touch them, one at a time.
        nonisolated(unsafe) let stays = UndoNote()
        nonisolated(unsafe) let moves = UndoNote()
        try await stays.save(to: home)
        try await moves.save(to: home)
        do {
            try await home.transaction { _ in
                stays.text = "changed"
                try await stays.save(to: home)
                throw Boom()
            }
            Issue.record("the transaction did not throw")
        } catch is Boom {}
        #expect(stays._isHome(home) && stays.text == "changed" && stays.isDirty)
        try await moves.delete()
        do {
            try await other.transaction { _ in
                try await moves.save(to: other)
                throw Boom()
            }
            Issue.record("the transaction did not throw")
        } catch is Boom {}
        #expect(moves._isHome(home) && moves.isNew)
        #expect(try await UndoNote.count(in: other) == 0)
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
        #expect(held.isNew && held.id == nil && held.__undoLevel.load(ordering: .relaxed) == 0)
        #expect(try await UndoNote.count(in: store) == 0)
    }

    @Test func aListenerHearsTheChangesMadeWhileItListens() async throws {
        let store = ArrayAdapter()
        // Texts no other test writes: the stream hears every UndoNote change in the
        // process, and other suites save UndoNotes meanwhile.
        let (early, late) = ("before \(UUID())", "after \(UUID())")
        var changes: AsyncStream<ModelChange>?
        try store.transaction {
            let before = UndoNote()
            before.text = early
            try before.save(to: store)
            // The plain stream (no filtering task): its buffer is filled at the commit.
            changes = ModelNotifications.changes()
            let after = UndoNote()
            after.text = late
            try after.save(to: store)
        }
        var iterator = try #require(changes).makeAsyncIterator()
        var heard: ModelChange?
        var heardEarly = false
        while let change = await iterator.next() {
            guard change.isAbout(UndoNote.self) else { continue }
            if change.attributes["text"] == .string(early) { heardEarly = true }
            if change.attributes["text"] == .string(late) {
                heard = change
                break
            }
        }
        #expect(heard?.action == .insert && !heardEarly)
    }
}
