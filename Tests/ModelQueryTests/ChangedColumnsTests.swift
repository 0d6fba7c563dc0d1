import ArrayAdapter
import Foundation
import TestSupport
import Testing

/// Records the changed columns each update hands the store.
final class ChangeRecordingAdapter: ForwardingAdapter, @unchecked Sendable {  // state behind `Locked`
    let updates = Locked<[[Int]]>([])

    override func update(_ row: [ModelValue], changedColumns: [Int], in schema: ModelSchema) throws {
        updates.withLock { $0.append(changedColumns) }
        try base.update(row, changedColumns: changedColumns, in: schema)
    }
}

final class StampedNote: Model {
    @Column var title: String = ""
    @Column var body: String = ""
    @Column var updated_at: Date?
    init() {}
}

/// The changed columns an update names: the ones that differ from the saved values, in
/// row order, then `updated_at` when the save stamps it. An update of one column takes
/// its list from the schema; the lists stay as made.
@Suite struct ChangedColumnsTests {
    @Test func anUpdateNamesTheColumnsItChangesAndTheStamp() throws {
        let store = ChangeRecordingAdapter()
        let note = StampedNote()
        note.title = "a"
        try note.save(to: store)
        let schema = note.recordSchema
        let (title, body, stamp) = (1, 2, try #require(schema.updatedAtIndex))
        let lonely = schema.lonelyChanges

        note.title = "b"
        try note.save()
        note.title = "c"
        note.body = "x"
        try note.save()
        // The caller sets the stamp (an import): kept, and named once.
        note.body = "y"
        note.updated_at = Date(timeIntervalSince1970: 5)
        try note.save(nil, stampsUpdatedAt: false)
        note.title = "d"
        try note.save(nil, stampsUpdatedAt: false)
        note.updated_at = Date(timeIntervalSince1970: 9)
        try note.save()
        note.updated_at = Date(timeIntervalSince1970: 10)
        try note.save(nil, stampsUpdatedAt: false)
        try note.save()  // nothing changed: no update

        #expect(
            store.updates.withLock { $0 } == [[title, stamp], [title, body, stamp], [body, stamp], [title], [stamp], [stamp]])
        #expect(note.updated_at == Date(timeIntervalSince1970: 10))
        #expect(schema.lonelyChanges == lonely && lonely == [[0, stamp], [title, stamp], [body, stamp], [stamp]])
    }

    @Test func aModelWithoutAStampNamesTheOneColumn() throws {
        let store = ChangeRecordingAdapter()
        let tag = Tag()
        tag.name = "a"
        try tag.save(to: store)
        tag.name = "b"
        try tag.save()
        #expect(store.updates.withLock { $0 } == [[1]])
        #expect(tag.recordSchema.lonelyChanges == [[0], [1]])
    }
}
