import ArrayAdapter
import Foundation
import Testing

@Suite("Record transactions")
struct RecordTransactionTests {
    @Test func rollbackRestoresTheBlockStartAndTheBlockContinues() throws {
        let task = Task(name: "start")
        var after = ""
        try task.transaction {
            task.name = "changed"
            task.priority = 4
            try task.rollback()
            after = task.name
            task.name = "final"
        }
        #expect(after == "start")
        #expect(task.priority == 0)
        #expect(task.name == "final")
    }

    @Test func nestedBlocksHaveTheirOwnSnapshots() throws {
        let task = Task(name: "0")
        try task.transaction {
            task.name = "1"
            try task.transaction {
                task.name = "2"
                try task.rollback()
                #expect(task.name == "1")
            }
            try task.rollback()
            #expect(task.name == "0")
        }
    }

    @Test func throwingRollsBackAutomatically() {
        let task = Task(name: "0")
        #expect(throws: Boom.self) {
            try task.transaction {
                task.name = "1"
                try task.transaction {
                    task.name = "2"
                    throw Boom()
                }
            }
        }
        #expect(task.name == "0")
    }

    @Test func innerThrowCaughtRollsBackOnlyTheInnerBlock() {
        let task = Task(name: "0")
        task.transaction {
            task.name = "1"
            do {
                try task.transaction {
                    task.name = "2"
                    throw Boom()
                }
            } catch {}
            #expect(task.name == "1")
        }
        #expect(task.name == "1")
    }

    @Test func rollbackOutsideATransactionIsATypedError() {
        let task = Task()
        let error = #expect(throws: ModelError.self) { try task.rollback() }
        #expect(error?.kind == .noTransaction)
    }

    @Test func rollbackNotifiesObservers() throws {
        let task = Task(name: "0")
        var seen: [String] = []
        try task.observe(\.name) { _, new in seen.append(new) }
        try task.transaction {
            task.name = "1"
            try task.rollback()
        }
        #expect(seen == ["1", "0"])
    }
}
