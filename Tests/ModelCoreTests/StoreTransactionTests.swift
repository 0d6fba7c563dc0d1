import ArrayAdapter
import Foundation
import Testing

struct Boom: Error {}

@Suite("Store transactions")
struct StoreTransactionTests {
    @Test func commitMakesAllWritesVisible() throws {
        try withStore { (store: ArrayAdapter) throws in
            let result = try store.transaction {
                try Task(name: "a").save()
                try Task(name: "b").save()
                return "done"
            }
            #expect(result == "done")
            #expect(try Task.all().map(\.name) == ["a", "b"])
        }
    }

    @Test func throwingRollsBackEverythingAndRestoresRecords() throws {
        try withStore { (store: ArrayAdapter) throws in
            let kept = Task(name: "kept")
            try kept.save()
            let fresh = Task(name: "fresh")
            #expect(throws: Boom.self) {
                try store.transaction {
                    try fresh.save()
                    kept.name = "renamed"
                    try kept.save()
                    try Task.deleteAll()
                    throw Boom()
                }
            }
            #expect(try Task.all().map(\.name) == ["kept"])
            #expect(fresh.isNew && fresh.id == nil)  // the record's state is restored too
            #expect(kept.name == "renamed" && kept.isDirty)  // saved state restored: dirty again
            let next = Task(name: "next")
            try next.save()
            #expect(next.id == 2)  // ids handed out inside the rollback are reused
        }
    }

    @Test func nestedLevelsAreSavepoints() throws {
        try withStore { (store: ArrayAdapter) throws in
            try store.transaction {
                try Task(name: "outer").save()
                #expect(throws: Boom.self) {
                    try store.transaction {
                        try Task(name: "inner").save()
                        try store.transaction { try Task(name: "innermost").save() }
                        throw Boom()
                    }
                }
                try store.transaction { try Task(name: "second inner").save() }
            }
            #expect(try Task.all().map(\.name) == ["outer", "second inner"])
        }
    }

    @Test func outerThrowUndoesCommittedInnerLevels() throws {
        try withStore { (store: ArrayAdapter) throws in
            #expect(throws: Boom.self) {
                try store.transaction {
                    try store.transaction { try Task(name: "inner").save() }
                    throw Boom()
                }
            }
            #expect(try Task.count() == 0)
        }
    }

    @Test func deletesRolledBackKeepInsertionOrder() throws {
        try withStore { (store: ArrayAdapter) throws in
            for name in ["a", "b", "c"] { try Task(name: name).save() }
            #expect(throws: Boom.self) {
                try store.transaction {
                    for task in try Task.all() where task.name != "c" { try task.delete() }
                    throw Boom()
                }
            }
            #expect(try Task.all().map(\.name) == ["a", "b", "c"])
        }
    }
}
