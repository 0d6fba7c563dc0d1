import ArrayAdapter
import Foundation
import TestSupport
import Testing

/// A store that sets values of its own on insert (a server normalising a field), answering
/// with the row as stored: the record takes that row, and a rollback or a failure puts back
/// the values it had before the save, not the store's.
final class NormalisingAdapter: ForwardingAdapter, @unchecked Sendable {  // no state of its own
    override func insertReturningStored(_ row: [ModelValue], into schema: ModelSchema) throws -> (
        id: ModelValue, stored: [ModelValue]?
    ) {
        var stored = row
        if case .string(let name) = stored[1] { stored[1] = .string(name.uppercased()) }
        let id = try base.insert(stored, into: schema)
        stored[0] = id
        return (id, stored)
    }
}

final class Tag: Model {
    @Column var name: String = ""
    init() {}
}

@Suite struct StoreSetValuesTests {
    @Test func aSavedRecordTakesTheValuesTheStoreSet() throws {
        let store = NormalisingAdapter()
        let tag = Tag()
        tag.name = "swift"
        try tag.save(to: store)
        #expect(tag.id == 1)
        #expect(tag.name == "SWIFT")
        #expect(!tag.isDirty)
    }

    @Test func aRolledBackInsertPutsBackTheValuesBeforeTheSave() throws {
        let store = NormalisingAdapter()
        let tag = Tag()
        tag.name = "swift"
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try store.transaction {
                try tag.save(to: store)
                #expect(tag.name == "SWIFT")
                throw Stop()
            }
        }
        #expect(tag.id == nil)
        #expect(tag.isNew)
        #expect(tag.name == "swift", "the value as the caller set it, not the store's")
        #expect(tag.changes.keys.sorted() == ["name"])
    }

    @Test func anInsertThroughTheDefaultSetsOnlyTheId() throws {
        let store = ForwardingAdapter()
        var row: [ModelValue] = [.null, "plain"]
        #expect(try store.insertSettingID(&row, into: Tag.schema) == nil)
        #expect(row == [1, "plain"])
        var normalised: [ModelValue] = [.null, "loud"]
        #expect(try NormalisingAdapter().insertSettingID(&normalised, into: Tag.schema) == [1, "LOUD"])
        #expect(normalised == [1, "loud"], "the row keeps its values; the stored row is the answer")
    }
}
