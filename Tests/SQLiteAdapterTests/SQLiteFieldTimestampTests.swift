import Foundation
import SQLiteAdapter
import Testing

@Suite struct SQLiteFieldTimestampTests {
    final class Ticket: Model {
        @Column(options: .fieldTimestamps) var phase = "open"
        init() {}
    }

    @Test func theStampsAreColumnsOfTheTable() throws {
        let store = try SQLiteAdapter()
        let ticket = Ticket()
        try ModelClock.using({ Date(timeIntervalSince1970: 10) }) { try ticket.save(to: store) }
        ticket.phase = "closed"
        try ModelClock.using({ Date(timeIntervalSince1970: 20) }) { try ticket.save() }
        let columns = try store.rows("SELECT name FROM pragma_table_info('tickets') ORDER BY cid").map { $0.values[0] }
        #expect(columns == ["id", "phase", "phase_set_at", "phase_changed_at"])
        let back = try #require(try Ticket.find(ticket.id ?? -1, in: store))
        #expect(try back.lastChanged(\.phase) == Date(timeIntervalSince1970: 20))
        #expect(try Ticket.where("phase_changed_at").gt(Date(timeIntervalSince1970: 15)).using(store).count() == 1)
    }
}
