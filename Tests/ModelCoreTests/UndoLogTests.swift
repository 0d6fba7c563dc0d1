import ArrayAdapter
@testable import ModelCore
import Testing

/// How a transaction level holds the records it wrote and their undo (``UndoLog``):
/// strongly while the caller keeps them, so they get no weak reference; records only the
/// level holds end, with their undo, at the level's next write or sweep, as they would
/// outside the transaction.
@Suite("Undo log", .runsOffThePool)
struct UndoLogTests {
    /// A weak-reference probe for a record.
    final class Probe {
        weak var record: UndoNote?
        init(_ record: UndoNote) { self.record = record }
    }

    /// The store the hand-made undo entries name.
    static let store = ArrayAdapter()

    /// Adds `record` to `log` with an undo of its current state, as a write would.
    @discardableResult
    static func append(_ record: UndoNote, to log: inout UndoLog, weakly: Bool = false) -> UndoLog.Released {
        var released = UndoLog.Released()
        log.append(record, weakly: weakly, undo: RecordUndo(record, before: record.state, store: store), outer: 0, releasing: &released)
        return released
    }

    /// Saves `count` new notes, probed in `probes`, and returns them.
    static func saveNotes(_ count: Int, to store: ArrayAdapter, probes: inout [Probe]) throws -> [UndoNote] {
        var notes: [UndoNote] = []
        for _ in 0..<count {
            let note = UndoNote()
            try note.save(to: store)
            notes.append(note)
            probes.append(Probe(note))
        }
        return notes
    }

    @Test func aLevelHoldsTheRecordsItsCallerKeepsWithoutWeakReferences() {
        var written = UndoLog()
        let first = UndoNote(), second = UndoNote(), foreign = UndoNote()
        #expect(Self.append(first, to: &written).previous == nil)
        #expect(Self.append(second, to: &written).previous == nil)
        // 1 is the runtime's count for an object no weak reference points to.
        #expect(_getWeakRetainCount(first) == 1 && _getWeakRetainCount(second) == 1)
        // A record written from another isolation is held weakly from the start: an
        // unowned count in its header (see WeakRecord), still without a side table.
        Self.append(foreign, to: &written, weakly: true)
        #expect(_getWeakRetainCount(foreign) == 1 && _getUnownedRetainCount(foreign) == 2)
        #expect(written.records.map(ObjectIdentifier.init) == [first, second, foreign].map(ObjectIdentifier.init))
    }

    @Test func theRecordBeforeANewOneIsLetGoWhenOnlyTheLevelHoldsIt() throws {
        var written = UndoLog()
        do {
            Self.append(UndoNote(), to: &written)
        }
        let next = UndoNote()
        var released = Self.append(next, to: &written)
        // Handed back to be dropped after the level's lock, with its undo and no weak
        // reference formed to it: nothing else can reach it, so the level forgets it at once.
        let previous = try #require(released.previous?.strong)
        #expect(released.loosened == nil)
        #expect(_getWeakRetainCount(previous) == 1)
        #expect(written.records.map(ObjectIdentifier.init) == [ObjectIdentifier(next)])
        #expect(written.count == 1)
        let probe = Probe(previous as! UndoNote)
        released = UndoLog.Released()
        #expect(probe.record != nil, "still held by `previous` here")
        withExtendedLifetime(previous) {}
    }

    /// A record SwiftModel also holds weakly elsewhere (a context, a child's owner link) can
    /// be loaded strongly on another thread while the level lets go of it: the level keeps
    /// a weak reference so it still finds the record then.
    @Test func aRecordHeldWeaklyElsewhereIsLetGoThroughAWeakReference() {
        var written = UndoLog()
        var probe: Probe?
        do {
            let dropped = UndoNote()
            dropped._noteHeldWeakly()
            probe = Probe(dropped)
            Self.append(dropped, to: &written)
        }
        let next = UndoNote()
        var released = Self.append(next, to: &written)
        // Handed back to be dropped after the level's lock, held weakly meanwhile, its undo
        // kept in the log.
        #expect(released.loosened != nil && released.previous == nil && written.records.count == 2)
        released = UndoLog.Released()
        #expect(probe?.record == nil)
        #expect(written.records.map(ObjectIdentifier.init) == [ObjectIdentifier(next)])
        // The ended record's entry goes at the next sweep.
        #expect(written.count == 2)
        withExtendedLifetime(written.sweep()) {}
        #expect(written.count == 1)
    }

    /// A sweep lets go of a record another thread could reach through SwiftModel's weak
    /// references by keeping a weak reference of its own, with the record's undo; the
    /// entry goes at the sweep after the record ends.
    @Test func aSweepKeepsARecordHeldWeaklyElsewhereListedWeakly() {
        var log = UndoLog()
        var probe: Probe?
        var dropped: UndoNote? = UndoNote()
        if let dropped {
            dropped._noteHeldWeakly()
            probe = Probe(dropped)
            Self.append(dropped, to: &log)
        }
        let kept = UndoNote()
        Self.append(kept, to: &log)
        dropped = nil
        var released = log.sweep()
        #expect(released.count == 1 && released.first?.record != nil && released.first?.undo == nil)
        #expect(log.count == 2 && probe?.record != nil, "alive until the caller drops what the sweep released")
        released = []
        #expect(probe?.record == nil)
        #expect(log.records.map(ObjectIdentifier.init) == [ObjectIdentifier(kept)])
        released = log.sweep()
        #expect(released.count == 1 && released.first?.record == nil && released.first?.undo != nil)
        #expect(log.count == 1)
    }

    /// The log keeps its entries in chunks: a sweep compacts each and packs them again
    /// when they are less than half full, keeping the order the records were written in.
    @Test func entriesAcrossChunksKeepTheirOrderThroughASweepThatPacksThem() {
        var log = UndoLog()
        var notes: [UndoNote?] = []
        for k in 0..<(UndoLog.chunkSize * 3 + 5) {
            let note = UndoNote()
            note.text = "\(k)"
            notes.append(note)
            Self.append(note, to: &log)
        }
        #expect(log.count == UndoLog.chunkSize * 3 + 5)
        // Three in four dropped: the chunks left are under half full.
        for k in notes.indices where k % 4 != 0 { notes[k] = nil }
        let released = log.sweep()
        #expect(released.count == notes.count(where: { $0 == nil }))
        let expected = notes.compactMap { $0 }.map(ObjectIdentifier.init)
        #expect(log.count == expected.count)
        #expect(log.records.map(ObjectIdentifier.init) == expected)
        // Written after the sweep: still in order, at the end.
        let last = UndoNote()
        Self.append(last, to: &log)
        #expect(log.records.map(ObjectIdentifier.init) == expected + [ObjectIdentifier(last)])
        withExtendedLifetime(notes) {}
    }

    @Test func aCommittedTransactionLetsGoOfTheRecordsItHeldAndTheirUndo() throws {
        let store = ArrayAdapter()
        var kept: UndoNote? = UndoNote()
        var updated: UndoNote? = UndoNote()
        let probes = [Probe(try #require(kept)), Probe(try #require(updated))]
        try updated?.save(to: store)
        try store.transaction {
            try kept?.save(to: store)
            updated?.text = "changed"
            try updated?.save(to: store)
            updated?.text = "again"
            try updated?.save(to: store)
            // One undo each: the second write at the level makes none.
            let records = [kept, updated].compactMap { $0 }
            #expect(records.count == 2 && records.allSatisfy { undoCount($0, in: store) == 1 })
        }
        kept = nil
        updated = nil
        #expect(probes.allSatisfy { $0.record == nil })
    }

    @Test func aRecordDroppedEarlyEndsAtTheNextSweepAndTheRestAreRestored() throws {
        let store = ArrayAdapter()
        var kept: [UndoNote] = []
        #expect(throws: Boom.self) {
            try store.transaction {
                var early: UndoNote? = UndoNote()
                let probe = Probe(try #require(early))
                try early?.save(to: store)
                // Still held when the next record is written, so that write keeps it.
                let second = UndoNote()
                try second.save(to: store)
                kept.append(second)
                early = nil
                #expect(probe.record != nil, "kept by the level after the caller dropped it")
                // The sweep at the level's 1,024th record lets it go: write up to one
                // short of that (the level holds `early` and `kept`).
                while 1 + kept.count < UndoLog.sweepFloor - 1 {
                    let note = UndoNote()
                    try note.save(to: store)
                    kept.append(note)
                }
                #expect(probe.record != nil, "kept until the sweep")
                let last = UndoNote()
                try last.save(to: store)
                kept.append(last)
                #expect(probe.record == nil)
                throw Boom()
            }
        }
        #expect(kept.allSatisfy { $0.isNew && $0.id == nil && $0.__undoLevel.load(ordering: .relaxed) == 0 })
        #expect(try UndoNote.count(in: store) == 0)
    }

    @Test func aLongTransactionKeepsAboutAsManyEndedRecordsAsLiveOnes() throws {
        let store = ArrayAdapter()
        var probes: [Probe] = []
        try store.transaction {
            // Records the caller drops as it goes end one write later.
            for _ in 0..<3_000 {
                let note = UndoNote()
                try note.save(to: store)
                probes.append(Probe(note))
            }
            #expect(probes.count(where: { $0.record != nil }) == 1)
            // Records kept for a while, then dropped together, end at the sweep that runs
            // when the level has twice as many records as after the last one.
            withExtendedLifetime(try Self.saveNotes(3_000, to: store, probes: &probes)) {}
            #expect(probes.count(where: { $0.record != nil }) == 3_000)
            var written = 6_000
            while probes.contains(where: { $0.record != nil }), written < 20_000 {
                try UndoNote().save(to: store)
                written += 1
            }
            #expect(written <= 2 * (3_000 + UndoLog.sweepFloor))
        }
        #expect(try UndoNote.count(in: store) >= 6_000)
    }

    @Test func aRecordDroppedInANestedLevelIsNotRestoredButTheOthersAre() throws {
        let store = ArrayAdapter()
        let outer = UndoNote()
        let inner = UndoNote()
        var probe: Probe?
        #expect(throws: Boom.self) {
            try store.transaction {
                try outer.save(to: store)
                try store.transaction {
                    do {
                        let dropped = UndoNote()
                        try dropped.save(to: store)
                        probe = Probe(dropped)
                    }
                    try inner.save(to: store)
                }
                // The committed savepoint's records moved to this level.
                #expect(undoCount(inner, in: store) == 1 && probe?.record == nil)
                throw Boom()
            }
        }
        #expect(outer.isNew && inner.isNew)
        #expect(try UndoNote.count(in: store) == 0)
    }
}
