import Foundation
import SQLiteAdapter
import Testing

@Suite struct SQLiteSmokeTests {
    @Test func crudRoundTrip() throws {
        try withSQLite { (store: SQLiteAdapter) throws in
            let g = Gadget()
            g.name = "widget"
            g.tags = ["a", "b"]
            try g.save()
            #expect(g.id == 1)
            let back = try #require(try Gadget.find(1))
            #expect(back.name == "widget")
            #expect(back.tags == ["a", "b"])
            try seedCitizens(store)
            #expect(try Citizen.where(\.city == "Paris").count() == 3)
        }
    }
}
