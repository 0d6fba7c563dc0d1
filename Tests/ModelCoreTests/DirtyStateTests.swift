import ArrayAdapter
import Foundation
import ModelCore
import Testing

@Suite("Dirty state")
struct DirtyStateTests {
    @Test func newRecordsAreCleanUntilChanged() {
        let task = Task()
        #expect(task.isNew)
        #expect(!task.isDirty)
        #expect(task.changes.isEmpty)
        task.name = "a"
        #expect(task.isDirty)
        #expect(task.changes == ["name": ColumnChange(old: "", new: "a")])
        task.name = ""
        #expect(!task.isDirty)  // back to the initial value
    }

    /// Assigning a value equal to the current one stores nothing: a loaded record keeps
    /// sharing its row with its baseline (no copy), and stays clean.
    @Test func assigningAnEqualValueStoresNothing() throws {
        try withStore { (_: ArrayAdapter) throws in
            let saved = Task(name: "a")
            saved.priority = 2
            try saved.save()
            let task = try #require(try Task.find(saved.id ?? -1))
            let address = { (row: [ModelValue]) in row.withUnsafeBufferPointer { $0.baseAddress } }
            #expect(address(task.__values) == address(task.__baseline))
            task.name = "a"
            task.priority = 2
            task.done = false
            #expect(address(task.__values) == address(task.__baseline))
            #expect(!task.isDirty)
            task.priority = 3
            #expect(task.changes == ["priority": ColumnChange(old: 2, new: 3)])
        }
    }

    @Test func savingCleansAndChangesTrackAgainstSavedValues() throws {
        try withStore { (_: ArrayAdapter) throws in
            let task = Task(name: "a")
            try task.save()
            #expect(!task.isNew)
            #expect(!task.isDirty)
            task.priority = 3
            task.done = true
            #expect(task.changes == ["priority": ColumnChange(old: 0, new: 3), "done": ColumnChange(old: false, new: true)])
        }
    }

    @Test func revertReturnsToSavedOrInitialState() throws {
        try withStore { (_: ArrayAdapter) throws in
            let fresh = Task(name: "draft")
            fresh.priority = 9
            fresh.revert()
            #expect(fresh.name == "")
            #expect(fresh.priority == 0)

            let task = Task(name: "a")
            try task.save()
            task.name = "b"
            task.longName = "long"
            task.revert()
            #expect(task.name == "a")
            #expect(task.longName == nil)
            #expect(!task.isDirty)
        }
    }

    @Test func reloadReadsTheStore() throws {
        try withStore { (_: ArrayAdapter) throws in
            let task = Task(name: "a")
            try task.save()
            let other = try #require(try stored(task))
            other.name = "changed elsewhere"
            try other.save()
            task.priority = 5
            try task.reload()
            #expect(task.name == "changed elsewhere")
            #expect(task.priority == 0)
            #expect(!task.isDirty)
        }
    }

    @Test func reloadErrors() throws {
        try withStore { (_: ArrayAdapter) throws in
            let error = #expect(throws: ModelError.self) { try Task().reload() }
            #expect(error?.kind == .notPersisted)
            let task = Task(name: "a")
            try task.save()
            try #require(try stored(task)).delete()
            let gone = #expect(throws: ModelError.self) { try task.reload() }
            #expect(gone?.kind == .recordNotFound)
        }
    }

    @Test func failedSaveLeavesRecordNewAndDirty() throws {
        try withStore { (_: ArrayAdapter) throws in
            let first = Task(name: "first")
            first.id = 1
            try first.save()
            let task = Task(name: "second")
            task.id = 1
            #expect(throws: StoreError.self) { try task.save() }
            #expect(task.isNew)
            #expect(task.isDirty)
            #expect(task.createdAt == nil)  // timestamps rolled back with the failed write
        }
    }

    @Test func deleteMakesTheRecordNewAgain() throws {
        try withStore { (_: ArrayAdapter) throws in
            let task = Task(name: "a")
            try task.save()
            let stale = try #require(try stored(task))
            #expect(try task.delete())
            #expect(task.isNew)
            #expect(try Task.count() == 0)
            let error = #expect(throws: ModelError.self) { try stale.delete() }
            #expect(error?.kind == .recordNotFound)
            try task.save()  // can be stored again, keeping its id
            #expect(try Task.find(1)?.name == "a")
        }
    }
}
