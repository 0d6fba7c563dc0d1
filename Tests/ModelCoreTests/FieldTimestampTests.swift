import ArrayAdapter
import Foundation
import Testing

/// Per-column timestamps: when a value was last set, and when it last changed.
@Suite struct FieldTimestampTests {
    final class Order: Model {
        @Column(options: .fieldTimestamps) var status = "new"
        @Column var note = ""
        init() {}
    }

    final class Clashing: Model {
        @Column(options: .fieldTimestamps) var status = ""
        @Column var statusSetAt: Date?
        init() {}
    }

    static func at(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }

    private func save(_ record: Order, at seconds: Double) throws {
        try ModelClock.using({ Self.at(seconds) }) { try record.save() }
    }

    @Test func theSchemaHasTwoStampColumnsPerTrackedColumn() {
        #expect(Order.schema.columnNames == ["id", "status", "note", "status_set_at", "status_changed_at"])
        #expect(Order.schema.problem == nil)
        #expect(Clashing.schema.problem?.kind == .duplicateName)
    }

    @Test func setAndChangedAreStampedOnSave() throws {
        try withStore { (_: ArrayAdapter) throws in
            let order = Order()
            #expect(try order.lastSet(\.status) == nil && order.lastChanged(\.status) == nil)
            try save(order, at: 100)
            #expect(try order.lastSet(\.status) == Self.at(100) && order.lastChanged(\.status) == Self.at(100), "insert stamps both")

            order.status = "new"  // the same value: set, not changed
            try save(order, at: 200)
            #expect(try order.lastSet(\.status) == Self.at(200))
            #expect(try order.lastChanged(\.status) == Self.at(100))

            order.status = "shipped"
            try save(order, at: 300)
            #expect(try order.lastSet(\.status) == Self.at(300) && order.lastChanged(\.status) == Self.at(300))

            order.note = "other column"
            try save(order, at: 400)
            #expect(try order.lastSet(\.status) == Self.at(300), "other columns do not stamp status")

            try order.set("status", to: "returned")  // the dynamic API counts as a set
            try save(order, at: 500)
            #expect(try order.lastChanged(\.status) == Self.at(500))

            let stored = try #require(try Order.find(order.id ?? -1))
            #expect(try stored.lastSet(\.status) == Self.at(500) && stored.lastChanged(\.status) == Self.at(500), "persisted")
            #expect(throws: ModelError.self) { _ = try stored.lastSet(\.note) }
        }
    }

    @Test func aFailedSaveLeavesTheStampsAsTheyWere() throws {
        try withStore { (store: ArrayAdapter) throws in
            struct Boom: Error {}
            let order = Order()
            try save(order, at: 100)
            order.status = "shipped"
            #expect(throws: Boom.self) {
                try store.transaction {
                    try self.save(order, at: 200)
                    throw Boom()
                }
            }
            #expect(try order.lastChanged(\.status) == Self.at(100), "rolled back with the transaction")
            try save(order, at: 300)
            #expect(try order.lastChanged(\.status) == Self.at(300), "still pending after the rollback")
            #expect(try order.lastSet(\.status) == Self.at(300))
        }
    }
}
