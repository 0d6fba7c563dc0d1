import ArrayAdapter
import Foundation
import Testing

/// The async save of a record with a staged relation (`desk.lamp = lamp`): the owner's
/// row and the staged child's writes commit together in an async transaction, with each
/// store call awaited, never made on the caller's thread.
@Suite struct AsyncStagedRelationTests {
    /// A saved desk with a saved lamp.
    private static func furnished(_ store: any PersistenceAdapter) async throws -> (Desk, Lamp) {
        let desk = Desk()
        desk.name = "oak"
        let lamp = Lamp()
        lamp.name = "brass"
        desk.lamp = lamp
        try await desk.save(to: store)
        return (desk, lamp)
    }

    @Test(arguments: AsyncStores.kinds) func theStagedChildIsWrittenWithItsOwner(_ kind: String) async throws {
        let store = try AsyncStores.make(kind)
        let (desk, lamp) = try await Self.furnished(store)
        let deskID = try #require(desk.id)
        let lampID = try #require(lamp.id, "\(kind): the staged lamp was saved")
        #expect(!lamp.isNew && !lamp.isDirty && lamp.desk === desk)
        #expect(try await Lamp.find(lampID, in: store)?["desk_id"] == .int(deskID))
        #expect(desk.lamp === lamp && !desk.isDirty)

        let brighter = Lamp()
        brighter.name = "steel"
        desk.lamp = brighter
        try await desk.save()
        #expect(try await Lamp.count(in: store) == 1, "\(kind): .destroy removed the replaced lamp")
        #expect(try await Lamp.find(lampID, in: store) == nil)
        let brighterID = try #require(brighter.id)
        #expect(try await Lamp.find(brighterID, in: store)?["desk_id"] == .int(deskID))
        #expect(desk.lamp === brighter)

        desk.lamp = nil
        try await desk.save()
        #expect(try await Lamp.count(in: store) == 0, "\(kind): unsetting the child destroys it")
    }

    @Test(arguments: AsyncStores.kinds) func anInvalidStagedChildRollsEverythingBack(_ kind: String) async throws {
        let store = try AsyncStores.make(kind)
        let (desk, lamp) = try await Self.furnished(store)
        let (deskID, lampID) = (try #require(desk.id), try #require(lamp.id))
        desk.name = "pine"
        let unnamed = Lamp()
        desk.lamp = unnamed
        await #expect(throws: RecordInvalid.self) { try await desk.save() }
        #expect(desk.isDirty && desk.name == "pine", "\(kind): the owner keeps its edit, unsaved")
        #expect(unnamed.isNew && unnamed.errors.messages(for: "name") == ["can't be blank"])
        #expect(try await Desk.find(deskID, in: store)?.name == "oak", "\(kind): the owner's update rolled back")
        #expect(try await Lamp.find(lampID, in: store)?.name == "brass", "\(kind): the replaced lamp's destroy rolled back")
        #expect(try await Lamp.count(in: store) == 1)

        // A new owner: its insert rolls back too, and it is new again.
        let bare = Desk()
        bare.name = "birch"
        bare.lamp = Lamp()
        await #expect(throws: RecordInvalid.self) { try await bare.save(to: store) }
        #expect(bare.isNew && bare.id == nil, "\(kind): the new owner is new again")
        #expect(try await Desk.count(in: store) == 1)

        unnamed.name = "named now"
        try await desk.save()
        #expect(try await Desk.find(deskID, in: store)?.name == "pine")
        #expect(try await Lamp.query(in: store).pluck(\.name) == ["named now"])
    }

    /// Without the async transaction, the staged save ran synchronously here: every store
    /// call on the main actor.
    @MainActor @Test func aStagedSaveOnTheMainActorMakesNoStoreCallOnTheMainActor() async throws {
        try #require(MainQueueMark.isCurrent, "the main actor runs on the main queue")
        let store = GateAdapter()
        let (desk, _) = try await Self.furnished(store)
        let replacement = Lamp()
        replacement.name = "paper"
        desk.lamp = replacement
        try await desk.save()
        #expect(try await Lamp.query(in: store).pluck(\.name) == ["paper"])
        #expect(store.calls.withLock { $0 } > 4)
        #expect(store.mainActorCalls.withLock { $0 } == 0, "store calls made on the main actor")
    }

    /// Inside an async transaction, a staged save from another isolation joins it (with a
    /// savepoint): it commits and rolls back with the transaction.
    @Test(arguments: AsyncStores.kinds) func aStagedSaveInsideAnAsyncTransactionJoinsIt(_ kind: String) async throws {
        struct Refused: Error {}
        let store = try AsyncStores.make(kind)
        let furnisher = await DeskFurnisher(store: store)
        try await store.transaction { _ in try await furnisher.furnish("kept") }
        #expect(try await Lamp.query(in: store).pluck(\.name) == ["kept"])
        await #expect(throws: Refused.self) {
            try await store.transaction { _ in
                try await furnisher.furnish("rolled back")
                throw Refused()
            }
        }
        #expect(try await Lamp.query(in: store).pluck(\.name) == ["kept"], "\(kind): the joined staged save rolled back")
        #expect(try await Desk.count(in: store) == 1)
    }
}

/// A main-actor owner of desks: furnishes a new one with a staged lamp.
@MainActor final class DeskFurnisher {
    let store: any PersistenceAdapter
    private var desks: [Desk] = []

    init(store: any PersistenceAdapter) { self.store = store }

    func furnish(_ lampName: String) async throws {
        let desk = Desk()
        let lamp = Lamp()
        lamp.name = lampName
        desk.lamp = lamp
        try await desk.save(to: store)
        desks.append(desk)
    }
}
