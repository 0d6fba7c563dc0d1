import AdapterConformance
import ArrayAdapter
import Foundation
import ModelCore
import Testing

/// Four plain columns, no stamps: every value a test expects is one it set.
final class Ledger: Model {
    @Column var name: String = ""
    @Column var amount: Int = 0
    @Column var flag: Bool = false
    @Column var note: String?
    init() {}
}

/// A saved record keeps its first changed column's old value apart instead of copying its
/// row (``ModelObject/__baseline``); what `changes`, `isDirty`, `revert()`, saves and
/// rollbacks see must not differ from a baseline kept as a whole row.
@Suite struct BaselineTests {
    struct Failure: Error {}

    /// The record as a reference model: its values and its baseline as plain rows.
    struct Expected {
        var values: [ModelValue]
        var baseline: [ModelValue]

        var changes: [String: ColumnChange] {
            var result: [String: ColumnChange] = [:]
            for k in values.indices where values[k] != baseline[k] {
                result[Ledger.schema.columns[k].name] = ColumnChange(old: baseline[k], new: values[k])
            }
            return result
        }
    }

    static func expectSame(_ record: Ledger, _ expected: Expected, _ step: String) {
        #expect(record.__values == expected.values, "\(step): values")
        #expect(record.__baseline == expected.baseline, "\(step): baseline")
        #expect(record.isDirty == (expected.values != expected.baseline), "\(step): isDirty")
        #expect(record.changes == expected.changes, "\(step): changes")
        #expect(record.__baselineID == expected.baseline[0], "\(step): baseline id")
    }

    /// 3,000 random steps over three saved records: assignments (some back to the saved
    /// value), saves, reverts, reloads and transactions that roll back after writing.
    @Test func theBaselineFollowsEveryWriteSaveRevertReloadAndRollback() throws {
        try withStore { store in
            var records: [Ledger] = []
            var expected: [Expected] = []
            for k in 0..<3 {
                let record = Ledger()
                record.name = "l\(k)"
                try record.save()
                records.append(record)
                expected.append(Expected(values: record.__values, baseline: record.__values))
            }
            var random = SeededRandom(seed: 57)
            let names: [ModelValue] = ["a", "b", "l0"]
            let notes: [ModelValue] = [nil, "x"]
            func assign(_ r: Int, _ step: Int) {
                let record = records[r]
                switch Int(random.next() % 4) {
                case 0:
                    let value = names[Int(random.next() % 3)]
                    record.name = value.stringValue ?? ""
                    expected[r].values[1] = value
                case 1:
                    let value = Int(random.next() % 3)
                    record.amount = value
                    expected[r].values[2] = .int(Int64(value))
                case 2:
                    let value = random.next() % 2 == 0
                    record.flag = value
                    expected[r].values[3] = .bool(value)
                default:
                    let value = notes[Int(random.next() % 2)]
                    record.note = value.stringValue
                    expected[r].values[4] = value
                }
            }
            for step in 0..<3_000 {
                let r = Int(random.next() % 3)
                let record = records[r]
                switch random.next() % 10 {
                case 0...4:
                    assign(r, step)
                case 5:
                    try record.save()
                    expected[r].baseline = expected[r].values
                case 6:
                    record.revert()
                    expected[r].values = expected[r].baseline
                case 7:
                    try record.reload()
                    expected[r].values = expected[r].baseline
                default:
                    // Writes inside a transaction that rolls back: each record saved in it
                    // is put back as it was right before its first save that wrote (unsaved
                    // changes included); one only assigned keeps its assignments.
                    var beforeFirstSave: [Int: Expected] = [:]
                    _ = try? store.transaction {
                        for _ in 0..<Int(random.next() % 4) {
                            let w = Int(random.next() % 3)
                            assign(w, step)
                            if random.next() % 2 == 0 {
                                // (A save of an unchanged record writes nothing to undo.)
                                if beforeFirstSave[w] == nil, expected[w].values != expected[w].baseline {
                                    beforeFirstSave[w] = expected[w]
                                }
                                try records[w].save()
                                expected[w].baseline = expected[w].values
                            }
                        }
                        throw Failure()
                    }
                    for (w, state) in beforeFirstSave { expected[w] = state }
                }
                for k in records.indices { Self.expectSame(records[k], expected[k], "step \(step) record \(k)") }
            }
        }
    }

    /// A one-column change saved with a new `updated_at` stamp in a transaction that rolls
    /// back: the record gets back the values it had before that save and the baseline it
    /// had (the stamp of the earlier save, the column's old value).
    @Test func aRolledBackStampedUpdatePutsBackTheBaselineBeforeIt() throws {
        let clock = TestClock()
        try ModelClock.using(clock.read) {
            try withStore { store in
                let task = Task(name: "first")
                try task.save()
                let saved = task.__values
                clock.advance(60)
                task.priority = 3
                let changed = task.__values
                _ = try? store.transaction {
                    try task.save()
                    #expect(task.updatedAt == clock.read() && !task.isDirty)
                    throw Failure()
                }
                #expect(task.__values == changed)
                #expect(task.__baseline == saved)
                #expect(task.changes == ["priority": ColumnChange(old: 0, new: 3)])
            }
        }
    }

    /// An update of a row that is gone, after a one-column change, leaves the change
    /// pending against the same baseline.
    @Test func aFailedUpdateKeepsTheChangeAgainstTheSameBaseline() throws {
        try withStore { _ in
            let record = Ledger()
            record.name = "kept"
            try record.save()
            let saved = record.__values
            record.amount = 5
            let id = try #require(record.id)
            let other = try #require(try Ledger.find(id))
            try other.delete()
            #expect(throws: (any Error).self) { try record.save() }
            #expect(record.changes == ["amount": ColumnChange(old: 0, new: 5)])
            #expect(record.__baseline == saved)
            record.revert()
            #expect(record.__values == saved && !record.isDirty)
        }
    }
}
