import ArrayAdapter
import Foundation
import Testing

@Suite("Defaults")
struct DefaultsTests {
    @Test func literalDefaultsApplyToNewRecords() {
        let d = Defaults()
        #expect(d.level == 5)
        #expect(d.code == "x")
        #expect(d.day == Date(timeIntervalSince1970: 1_347_667_200))
    }

    @Test func factoriesRunPerInstance() {
        let a = Defaults(), b = Defaults()
        #expect(a.token != b.token)
        a.list.append(1)
        #expect(b.list == [])  // never one shared mutable value
    }

    @Test func callerSuppliedValuesWin() throws {
        let d = try Defaults(["level": 7, "code": "y", "day": nil])
        #expect(d.level == 7)
        #expect(d.code == "y")
        #expect(d.day == nil)
    }

    @Test func defaultsAreStoredOnSave() throws {
        try withStore { (_: ArrayAdapter) throws in
            let d = Defaults()
            try d.save()
            let loaded = try #require(try stored(d))
            #expect(loaded.level == 5)
            #expect(loaded.token == d.token)
        }
    }

    @Test func defaultsDoNotOverwriteLoadedRows() throws {
        try withStore { (_: ArrayAdapter) throws in
            let d = Defaults()
            d.level = 1
            try d.save()
            #expect(try Defaults.all().map(\.level) == [1])
        }
    }
}
