import ArrayAdapter
import Foundation
import Testing

@testable import ModelQuery

/// Context files that must be refused or must read back exactly, the identity map across
/// stores, and the identity of the task that made a context.
@Suite struct ContextIdentityTests {
    /// A draft file: an unsaved assignee linked to an unsaved board, plus a dated record.
    func draftFile(_ url: URL, in store: ArrayAdapter) throws {
        try ModelStore.using(store) {
            let context = ModelContext()
            try insertUnsavedAssigneeOnBoard(into: context)
            let stamp = Stamp()
            stamp.at = Date(timeIntervalSince1970: 123456.789)
            stamp.ratio = 0.1 + 0.2
            try context.insert(stamp)
            try context.write(to: url)
        }
    }

    func temporaryURL() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("ctx-\(UUID().uuidString).json")
    }

    /// The weak references SwiftModel keeps to records outside a transaction level mark
    /// them, so a level that lets go of one keeps a weak reference of its own (see
    /// `UndoLog`); a record nothing holds weakly stays unmarked.
    @Test func weakReferencesOutsideATransactionLevelMarkTheRecord() throws {
        let store = ArrayAdapter()
        let apollo = try Project.create(["name": "apollo"], in: store)
        #expect(!apollo.__heldWeakly)
        // A child made through its owner links back to it weakly.
        try apollo.issues.create(["title": "fuel"])
        #expect(apollo.__heldWeakly)
        let id = try #require(apollo.id)
        let plain = try #require(try Project.find(id, in: store))
        #expect(!plain.__heldWeakly)
        // A context that does not retain its records holds them weakly; one that does
        // holds them strongly.
        let weakly = ModelContext(retainsRecords: false)
        let inWeakContext = try #require(try weakly.run { try Project.find(id, in: store) })
        #expect(inWeakContext.__heldWeakly)
        let strongly = ModelContext(retainsRecords: true)
        let inStrongContext = try #require(try strongly.run { try Project.find(id, in: store) })
        #expect(!inStrongContext.__heldWeakly)
        // Children loaded through an owner link back to it weakly.
        let owners = try Project.query(in: store).including(\.issues).all()
        #expect(owners.count == 1 && owners.allSatisfy(\.__heldWeakly))
        // ... without a side table (a Swift `weak` reference would give the owner one).
        #expect(owners.allSatisfy { _getWeakRetainCount($0) == 1 })
        #expect(owners.first?.issues.loaded?.first?.project === owners.first)
        #expect(try Issue.query(in: store).including(\.project).all().allSatisfy { !($0.project?.__heldWeakly ?? true) })
    }

    /// A context holds its records, and they their context, without Swift `weak`
    /// references, which would give each record and the context a side table and move
    /// every later retain and release of them onto the runtime's slow path (see
    /// `WeakReferences.swift`): through a load, a change and a save, the runtime's weak
    /// count of each stays 1 (none). Once the context is gone, its records let go of it.
    @Test func aContextAndItsRecordsGetNoSideTables() throws {
        let store = ArrayAdapter()
        let id = try #require(try Project.create(["name": "apollo"], in: store).id)
        let (record, membership) = try Self.savedInAContext(id, store)
        #expect(_getWeakRetainCount(record) == 1)
        #expect(membership.registry == nil && membership.registryIsGone)
        #expect(try Project.find(id, in: store)?.name == "artemis")
    }

    /// A child's link to the owner it was reached through keeps the owner's memory (not the
    /// owner) allocated, like any ``WeakRecord``: reading the relation once the owner is
    /// gone reads nil and drops the link.
    @Test func aChildDropsItsLinkToAnOwnerThatIsGone() throws {
        let store = ArrayAdapter()
        let child = try Self.issueOfADroppedProject(store)
        #expect(child.__inverse.slot >= 0, "linked to its owner")
        #expect(child.project == nil)
        #expect(child.__inverse.slot == -1, "the link is gone")
        #expect(try child.load(\.project)?.name == "apollo", "the stored parent still loads")
    }

    /// An issue made through its project, which is gone on return.
    static func issueOfADroppedProject(_ store: ArrayAdapter) throws -> Issue {
        let project = try Project.create(["name": "apollo"], in: store)
        return try project.issues.create(["title": "fuel"])
    }

    /// Project `id` found, changed and saved in a context, which is gone on return: the
    /// record, and its membership of the context.
    static func savedInAContext(_ id: Project.IDValue, _ store: ArrayAdapter) throws -> (Project, RegistryMembership) {
        let context = ModelContext()
        let record = try #require(try context.run { try Project.find(id, in: store) })
        record.name = "artemis"
        try context.save()
        #expect(try context.run { try Project.find(id, in: store) } === record)
        #expect(_getWeakRetainCount(record) == 1 && _getWeakRetainCount(context) == 1)
        let membership = try #require(record._membership)
        #expect(membership.registry === context && !membership.registryIsGone)
        return (record, membership)
    }

    @Test func aLinkMustNameAForeignKeyToTheLinkedModel() throws {
        let store = ArrayAdapter()
        let url = temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        try draftFile(url, in: store)
        let text = try String(contentsOf: url, encoding: .utf8)
        let boardSlot = try #require(Assignee.schema.columnNames.firstIndex(of: "board_id"))
        #expect(text.contains("\"slot\":\(boardSlot)"))
        for column in ["name", "veto_destroy"] {
            let slot = try #require(Assignee.schema.columnNames.firstIndex(of: column))
            try text.replacingOccurrences(of: "\"slot\":\(boardSlot)", with: "\"slot\":\(slot)").write(
                to: url, atomically: true, encoding: .utf8)
            let error = #expect(throws: ContextError.self) {
                _ = try ModelContext(contentsOf: url, models: [Board.self, Assignee.self, Stamp.self], store: store)
            }
            #expect(error?.kind == .invalidFile && error?.message.contains(column) == true, "\(column)")
        }
        #expect(try Assignee.count(in: store) == 0 && Board.count(in: store) == 0)
    }

    @Test func datesAndDoublesReadBackExactly() throws {
        let store = ArrayAdapter()
        let url = temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        try draftFile(url, in: store)
        let context = try ModelContext(contentsOf: url, models: [Board.self, Assignee.self, Stamp.self], store: store)
        try ModelStore.using(store) { try context.save() }
        let stamp = try #require(try Stamp.all(in: store).first)
        #expect(stamp.at == Date(timeIntervalSince1970: 123456.789))
        #expect(stamp.ratio == 0.1 + 0.2)
    }

    @Test func filesWrittenWithSecondsSince1970StillRead() throws {
        let store = ArrayAdapter()
        let url = temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        try draftFile(url, in: store)
        let text = try String(contentsOf: url, encoding: .utf8)
        let reference = Date(timeIntervalSince1970: 123456.789).timeIntervalSinceReferenceDate
        let legacy = text.replacingOccurrences(of: "{\"r\":\(reference)}", with: "{\"t\":123456.789}")
        #expect(legacy != text)
        try legacy.write(to: url, atomically: true, encoding: .utf8)
        let context = try ModelContext(contentsOf: url, models: [Board.self, Assignee.self, Stamp.self], store: store)
        try ModelStore.using(store) { try context.save() }
        let seconds = try #require(try Stamp.all(in: store).first?.at.timeIntervalSince1970)
        #expect(abs(seconds - 123456.789) < 1e-6)
    }

    @Test(arguments: ["{\"f\":1e-400}", "{\"f\":1e400}", "{\"r\":-1e-999}", "{\"r\":1e999}"])
    func numbersBeyondDoublesRangeInAFileAreRefused(_ value: String) throws {
        let store = ArrayAdapter()
        let url = temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        try draftFile(url, in: store)
        let text = try String(contentsOf: url, encoding: .utf8)
        let key = value.hasPrefix("{\"f\"") ? "{\"f\":\(0.1 + 0.2)}" : "{\"r\":\(Date(timeIntervalSince1970: 123456.789).timeIntervalSinceReferenceDate)}"
        #expect(text.contains(key))
        try text.replacingOccurrences(of: key, with: value).write(to: url, atomically: true, encoding: .utf8)
        let error = #expect(throws: ContextError.self) {
            _ = try ModelContext(contentsOf: url, models: [Board.self, Assignee.self, Stamp.self], store: store)
        }
        #expect(error?.kind == .invalidFile)
    }

    @Test func theIdentityMapIsKeyedByStoreOnEveryLoadPath() throws {
        let first = ArrayAdapter(), second = ArrayAdapter()
        try Board.create(["title": "first"], in: first)
        try Board.create(["title": "second"], in: second)
        let context = ModelContext()
        try context.run {
            let a = try #require(try Board.find(1, in: first))
            let b = try #require(try Board.find(1, in: second))
            #expect(a !== b && b.title == "second")
            #expect(try Board.find(1, in: second) === b, "each store's record is held")
            #expect(try Board.query(in: second).where(\.title == "second").all().first === b)
            // A child context loads the second store's row, not the parent's first-store instance.
            let child = ModelContext(parent: context)
            let (found, listed) = try child.run { (try Board.find(1, in: second)?.title, try Board.all(in: second).first?.title) }
            #expect(found == "second" && listed == "second")
            a.title = "edited first"
            b.title = "edited second"
            let error = #expect(throws: ContextError.self) { try context.save() }
            #expect(error?.kind == .mixedStores && error?.model == "Board")
        }
        #expect(try Board.find(1, in: first)?.title == "first")
        #expect(try Board.find(1, in: second)?.title == "second")
    }

    @Test func identityKeysTellEveryPartApart() throws {
        let store = ArrayAdapter(), other = ArrayAdapter()
        let key = { (adapter: ArrayAdapter?, schema: ModelSchema, id: ModelValue) in ModelContext.Key(store: adapter, schema: schema, id: id) }
        let ids: [ModelValue] = [.null, .int(0), .int(1), .int(-1), .int(.max), .string("1"), .string(""), .uuid(UUID()), .double(1)]
        var seen: Set<ModelContext.Key> = []
        for adapter in [store, other, nil] {
            for schema in [Board.schema, Assignee.schema] {
                for id in ids { #expect(seen.insert(key(adapter, schema, id)).inserted, "\(id) in \(schema.modelName)") }
            }
        }
        #expect(seen.contains(key(store, Board.schema, .int(1))) && key(store, Board.schema, .int(1)) == key(store, Board.schema, .int(1)))
        // 100,000 ids of one table: all distinct, and the dictionary keeps finding them.
        var map: [ModelContext.Key: Int] = [:]
        for id in 1...100_000 { map[key(store, Board.schema, .int(Int64(id)))] = id }
        #expect(map.count == 100_000 && map[key(store, Board.schema, .int(77_777))] == 77_777)
    }

    /// A retaining context's slot holds its record strongly and forms no weak reference;
    /// a plain context's slot holds it weakly, without a side table (a Swift `weak`
    /// reference would give the record one, and slow every later retain and release of
    /// it), and forgets it once it is gone.
    @Test func slotsHoldRecordsOneWay() throws {
        var kept: Board? = Board(), dropped: Board? = Board()
        let strong: ModelContext.Slot, weak: ModelContext.Slot
        do {
            let keptRecord = try #require(kept), droppedRecord = try #require(dropped)
            strong = ModelContext.Slot(keptRecord, retains: true)
            #expect(strong.weak == nil && strong.strong === kept && strong.record === kept)
            #expect(strong.holds(keptRecord) && !strong.holds(Board()))
            weak = ModelContext.Slot(droppedRecord, retains: false)
            #expect(weak.strong == nil && weak.weak?.refers(to: droppedRecord) == true && weak.record === dropped)
            #expect(weak.holds(droppedRecord) && !weak.holds(Board()))
            // 1 is the runtime's count for an object no `weak` reference points to.
            #expect(_getWeakRetainCount(droppedRecord) == 1)
        }
        (kept, dropped) = (nil, nil)
        #expect(strong.record != nil && weak.record == nil)
        #expect(ModelContext.Slot.empty.record == nil)
    }

    @Test func aContextsCreatorIsNeverATaskMadeAfterItEnded() async {
        let context = await Task { ModelContext() }.value
        #expect(context.isOwnedByCaller == false)
        for _ in 0..<200 {
            let owned = await Task { context.isOwnedByCaller }.value
            #expect(owned == false)
            if owned { break }
        }
        #expect(await Task { ModelContext().isOwnedByCaller }.value, "its own creator is")
    }
}

/// A record with a date and a double, for exact round trips through context files.
final class Stamp: Model {
    @Column var at: Date = Date(timeIntervalSince1970: 0)
    @Column var ratio: Double = 0
    @Column var rank: Int = 0
    init() {}
}
