import ArrayAdapter
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

/// What `ModelContext.save()` writes, in which order, and what it leaves pending.
@Suite(.serialized) struct ContextSaveTests {
    @Test func itemsComeOutInKeyOrder() {
        var generator = SystemRandomNumberGenerator()
        let dense = Array(1...500).shuffled(using: &generator)
        #expect(orderedByDistinctKeys(dense, key: { $0 }) == Array(1...500), "keys close together: placed")
        let sparse = (0..<300).map { $0 * 1_000 - 70_000 }.shuffled(using: &generator)
        #expect(orderedByDistinctKeys(sparse, key: { $0 }) == sparse.sorted(), "keys far apart: sorted")
        let extremes = [Int.max, Int.min, 0]
        #expect(orderedByDistinctKeys(extremes, key: { $0 }) == [Int.min, 0, .max], "a span wider than Int")
        let shared = [(3, "c"), (1, "a"), (3, "d")]
        #expect(orderedByDistinctKeys(shared, key: { $0.0 }).map(\.1).sorted() == ["a", "c", "d"], "a shared key loses nothing")
        #expect(orderedByDistinctKeys([Int](), key: { $0 }).isEmpty)
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

    /// Two stored relays (values 1 and 2) held by a new context, in the current store.
    private func twoHeldRelays() throws -> (ModelContext, Relay, Relay) {
        try Relay.create(["value": 1])
        try Relay.create(["value": 2])
        let context = ModelContext()
        let (first, second) = try context.run { (try Relay.find(1), try Relay.find(2)) }
        return (context, try #require(first), try #require(second))
    }
}
