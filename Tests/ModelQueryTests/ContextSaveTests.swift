import ArrayAdapter
import AdapterConformance
import Foundation
import Testing

/// A model whose update changes another record (`partner`), as a hook may.
final class Relay: Model {
    @Column var value: Int = 0
    /// Set by the test; only the test's thread uses it.
    nonisolated(unsafe) static var partner: Relay?
    /// The ids of the updates, in order (the test's thread only).
    nonisolated(unsafe) static var updated: [Int64] = []
    /// A record the update takes out of `context` (the test's thread only).
    nonisolated(unsafe) static var dropped: (Relay, ModelContext)?
    init() {}
    func afterUpdate() {
        Relay.updated.append(id ?? -1)
        if let partner = Relay.partner, partner !== self { partner.value += 100 }
        if let (record, context) = Relay.dropped { try? context.delete(record) }
    }
}

/// An aisle and its bins, whose updates note the order they are written in (the test's
/// thread only).
final class Aisle: Model {
    @Column var label: String = ""
    @HasMany var bins: Children<Bin>
    nonisolated(unsafe) static var written: [String] = []
    init() {}
    func afterUpdate() { Aisle.written.append("aisle \(label)") }
}

final class Bin: Model {
    @Column var label: String = ""
    @BelongsTo var aisle: Aisle?
    init() {}
    func afterUpdate() { Aisle.written.append("bin \(label)") }
}

/// What `ModelContext.save()` writes, in which order, and what it leaves pending.
@Suite(.serialized) struct ContextSaveTests {
    /// Most of the pending records leave the context (the pending table closes its holes),
    /// others join after them, and one more leaves: the save writes the ones left, in the
    /// order they changed, and not the ones that left.
    @Test func theSaveOrderSurvivesRecordsLeaving() throws {
        try ModelStore.using(ArrayAdapter()) {
            for k in 0..<120 { try Relay.create(["value": .int(Int64(k))]) }
            let context = ModelContext()
            let held = try context.run { try Relay.all() }
            var generator = SeededRandom(seed: 41)
            let first = Array(0..<100).shuffled(using: &generator)
            for k in first { held[k].value += 1 }
            let leaving = Set(first.shuffled(using: &generator).prefix(80))
            for k in first where leaving.contains(k) { context.evict(held[k]) }
            let later = Array(100..<120).shuffled(using: &generator)
            for k in later { held[k].value += 1 }
            let kept = first.filter { !leaving.contains($0) }
            context.evict(held[kept[3]])
            let expected = (kept.filter { $0 != kept[3] } + later).map { held[$0].id ?? -1 }
            Relay.updated = []
            try context.save()
            #expect(Relay.updated == expected)
            #expect(!context.hasChanges)
        }
    }

    @Test func recordsAreWrittenInTheOrderTheyChanged() throws {
        try ModelStore.using(ArrayAdapter()) {
            for k in 0..<40 { try Relay.create(["value": .int(Int64(k))]) }
            let context = ModelContext()
            let held = try context.run { try Relay.all() }
            let order = (0..<40).shuffled()
            for k in order { held[k].value += 1 }
            Relay.updated = []
            try context.save()
            #expect(Relay.updated == order.map { held[$0].id ?? -1 })
            #expect(!context.hasChanges)
        }
    }

    /// A hook changes another record during the save; with `anotherLeaves`, a second
    /// hook also takes an unsaved record out of the context, so as many records leave the
    /// pending table as join it: the save must still not take the newcomer for one it wrote.
    @Test(arguments: [false, true])
    func aRecordAHookChangesDuringTheSaveStaysPending(anotherLeaves: Bool) throws {
        try ModelStore.using(ArrayAdapter()) {
            let (context, a, b) = try twoHeldRelays()
            a.value = 10
            if anotherLeaves {
                let unsaved = Relay()
                unsaved.value = 3
                try context.insert(unsaved)
                Relay.dropped = (unsaved, context)
            }
            Relay.partner = b
            defer { (Relay.partner, Relay.dropped) = (nil, nil) }
            try context.save()
            #expect(b.value == 102, "the hook changed the second record")
            #expect(context.hasChanges, "that change is still to save")
            #expect(context.changes.updated.contains { $0 === b })
            (Relay.partner, Relay.dropped) = (nil, nil)
            try context.save()
            #expect(try Relay.find(2)?.value == 102)
            #expect(!context.hasChanges)
        }
    }

    /// A record changed and changed back is pending but has nothing to write: after the
    /// save it is still watched, so its next change is saved.
    @Test func aRecordChangedBackBeforeTheSaveIsStillWatched() throws {
        try ModelStore.using(ArrayAdapter()) {
            let (context, a, b) = try twoHeldRelays()
            a.value = 10
            b.value = 20
            b.value = 2
            try context.save()
            b.value = 30
            #expect(context.hasChanges)
            try context.save()
            #expect(try Relay.find(2)?.value == 30)
        }
    }

    /// Records of several models are written parents' models first, whatever order they
    /// changed in, and in the order they changed within a model.
    @Test func aParentsModelIsWrittenBeforeItsChildren() throws {
        try ModelStore.using(ArrayAdapter()) {
            let aisle = try Aisle.create(["label": "a"])
            for label in ["x", "y"] { try aisle.bins.create(["label": .string(label)]) }
            let context = ModelContext()
            let (aisles, bins) = try context.run { (try Aisle.all(), try Bin.all()) }
            bins[1].label = "y2"
            aisles[0].label = "a2"
            bins[0].label = "x2"
            Aisle.written = []
            try context.save()
            #expect(Aisle.written == ["aisle a2", "bin y2", "bin x2"])
        }
    }

    /// A record linked to an unsaved record of its own model is written after it, even
    /// when it joined the context first: its foreign key then names the stored parent.
    @Test func aRecordIsWrittenAfterTheUnsavedRecordItBelongsTo() throws {
        try ModelStore.using(ArrayAdapter()) {
            let context = ModelContext()
            let child = Node()
            child.label = "child"
            let parent = Node()
            parent.label = "parent"
            child.parent = parent
            try context.insert(child)
            try context.insert(parent)
            try context.save()
            let stored = try Node.find(child.id ?? -1)
            #expect(parent.id != nil)
            #expect(try stored?.load(\.parent)?.id == parent.id)
        }
    }

    /// While a context saves, its members' updates skip its lock (their membership says
    /// the context is saving); once the save ends, written or failed, a member saved on its
    /// own leaves the unit of work again, so nothing keeps it once its user drops it.
    @Test(arguments: [false, true])
    func aMemberSavedOnItsOwnAfterTheContextsSaveLeavesTheUnitOfWork(saveFails: Bool) throws {
        try ModelStore.using(ArrayAdapter()) {
            let board = try Board.create(["title": "b"])
            let vetoed = try board.assignees.create(["name": "v", "veto_destroy": true])
            let context = ModelContext()
            var member = try context.run { try Board.find(board.id ?? 0) }
            member?.title = "changed"
            if saveFails {
                try context.insert(vetoed)
                try context.delete(vetoed)
                #expect(throws: ModelError.self) { try context.save() }
            } else {
                try context.save()
            }
            member?.title = "again"
            try member?.save()
            weak let dropped = member
            member = nil
            #expect(dropped == nil, "the context no longer holds the member as pending work")
            #expect(try Board.find(board.id ?? 0)?.title == "again")
        }
    }

    /// Two stored relays (values 1 and 2) held by a new context, in the current store.
    /// A context builds no changes for its own records' saves when it is the only one that
    /// would take them: a change stream and another context still get every change.
    @Test func aContextsSaveReachesChangeStreamsAndOtherContexts() async throws {
        let stream = ModelNotifications.changes(of: Relay.self)
        let store = ArrayAdapter()
        let values = try ModelStore.using(store) { () throws -> [Int] in
            let (context, a, b) = try twoHeldRelays()
            a.value = 10
            b.value = 20
            try context.save()
            let other = ModelContext()
            let seen = try other.run { try Relay.all() }
            a.value = 11
            try context.save()
            return seen.map(\.value)
        }
        #expect(values == [11, 20])
        var updates: [Int64] = []
        for await change in stream where change.action == .update {
            if case .int(let id) = change.id { updates.append(id) }
            if updates.count == 3 { break }
        }
        #expect(updates == [1, 2, 1])
    }

    private func twoHeldRelays() throws -> (ModelContext, Relay, Relay) {
        try Relay.create(["value": 1])
        try Relay.create(["value": 2])
        let context = ModelContext()
        let (first, second) = try context.run { (try Relay.find(1), try Relay.find(2)) }
        return (context, try #require(first), try #require(second))
    }
}
