import ArrayAdapter
import Foundation
import Testing

/// A record inserted into ArrayAdapter hands its own row to the store, which sets the id in
/// place and keeps that row, when nothing observes the record; an observed record takes the
/// id value by value, telling its observers. Either way the record and the store stay
/// independent.
@Suite struct StoredRowSharingTests {
    @Test func aSavedRecordHandsItsRowToTheStoreWithoutACopy() throws {
        let store = ArrayAdapter()
        let item = Item()
        item.name = "handed"
        let handed = item.__values.withUnsafeBufferPointer { $0.baseAddress }
        try item.save(to: store)
        #expect(item.id == 1)
        #expect(item.__values.withUnsafeBufferPointer { $0.baseAddress } == handed, "the id was set in the record's own row")
        let stored = try #require(try store.find(id: 1, in: Item.schema))
        #expect(stored.withUnsafeBufferPointer { $0.baseAddress } == handed, "the store keeps that row")
        #expect(stored == [1, "handed", 0])
    }

    @Test func anInsertThatThrowsLeavesTheHandedRowAsItWas() throws {
        let store = ArrayAdapter()
        var row: [ModelValue] = [.null, "first", 0]
        #expect(try store.insertSettingID(&row, into: Item.schema) == nil)
        #expect(row == [1, "first", 0])

        var duplicate: [ModelValue] = [1, "second", 0]
        #expect(throws: StoreError.self) { _ = try store.insertSettingID(&duplicate, into: Item.schema) }
        #expect(duplicate == [1, "second", 0])
        var unsupported: [ModelValue] = [.null, "third"]
        #expect(throws: (any Error).self) { _ = try store.insertSettingID(&unsupported, into: Item.schema) }
        #expect(unsupported == [.null, "third"])
        #expect(try store.count(StoreQuery(schema: Item.schema)) == 1)
    }

    @Test func aFailedSaveOfAHandedRowLeavesTheRecordNew() throws {
        let store = ArrayAdapter()
        let first = Item()
        first.name = "first"
        try first.save(to: store)
        let second = Item()
        second.id = 1
        second.name = "clashes"
        #expect(throws: StoreError.self) { try second.save(to: store) }
        #expect(second.isNew)
        #expect(second.id == 1)
        #expect(second.name == "clashes")
        #expect(try store.find(id: 1, in: Item.schema) == [1, "first", 0])

        second.id = nil
        try second.save(to: store)
        #expect(second.id == 2)
        #expect(try store.find(id: 2, in: Item.schema) == [2, "clashes", 0])
    }

    @Test func aSavedRecordAndItsStoredRowStayIndependent() throws {
        let store = ArrayAdapter()
        let item = Item()
        item.name = "first"
        try item.save(to: store)
        #expect(item.id == 1)
        #expect(!item.isDirty)
        #expect(try store.find(id: 1, in: Item.schema) == [1, "first", 0])

        item.name = "edited, not saved"
        item.rank = 7
        #expect(try store.find(id: 1, in: Item.schema) == [1, "first", 0], "the store's row did not change with the record")
        #expect(item.changes.keys.sorted() == ["name", "rank"])

        try store.update([1, "changed in the store", 2], changedColumns: [1, 2], in: Item.schema)
        #expect(item.name == "edited, not saved", "the record did not change with the store's row")
        try item.save()
        #expect(try store.find(id: 1, in: Item.schema) == [1, "edited, not saved", 7])
    }

    @Test func aRolledBackInsertLeavesTheRecordNewWithItsValues() throws {
        let store = ArrayAdapter()
        let item = Item()
        item.name = "kept"
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try store.transaction {
                try item.save(to: store)
                #expect(item.id == 1)
                throw Stop()
            }
        }
        #expect(item.id == nil)
        #expect(item.isNew)
        #expect(item.name == "kept")
        #expect(try store.count(StoreQuery(schema: Item.schema)) == 0)
        try item.save(to: store)
        #expect(try store.find(id: item.id.map { .int($0) } ?? .null, in: Item.schema) == [1, "kept", 0])
    }

    @Test func anObservedRecordHearsOfTheIdItWasGiven() throws {
        let store = ArrayAdapter()
        let item = Item()
        item.name = "watched"
        var seen: [(ModelValue, ModelValue)] = []
        let observation = try item.observe("id") { old, new in seen.append((old, new)) }
        defer { observation.cancel() }
        try item.save(to: store)
        #expect(seen.count == 1)
        #expect(seen.first?.0 == .null && seen.first?.1 == 1, "the column observer saw the id the insert gave")
        #expect(item.id == 1)
        #expect(!item.isDirty)
    }
}
