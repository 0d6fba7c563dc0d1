import ArrayAdapter
import Foundation
import Testing

/// A record inserted into ArrayAdapter takes the row as stored (its id set) by sharing it
/// with the store when nothing observes the record, and value by value — telling its
/// observers — when something does. Either way the record and the store stay independent.
@Suite struct StoredRowSharingTests {
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
