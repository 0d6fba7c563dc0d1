import ArrayAdapter
import Foundation
import Testing

@Suite("Ids")
struct IDTests {
    @Test func int64IdsAreAssignedOnFirstInsertNotAtInit() throws {
        try withStore { (_: ArrayAdapter) throws in
            let a = Task(name: "a"), b = Task(name: "b")
            #expect(a.id == nil)
            try a.save()
            try b.save()
            #expect(a.id == 1)
            #expect(b.id == 2)
            try a.save()  // no change: same id
            #expect(a.id == 1)
        }
    }

    @Test func explicitIdIsKeptAndNextIdContinuesAbove() throws {
        try withStore { (_: ArrayAdapter) throws in
            let a = Task(name: "a")
            a.id = 40
            try a.save()
            let b = Task(name: "b")
            try b.save()
            #expect(a.id == 40)
            #expect(b.id == 41)
        }
    }

    @Test func duplicateIdIsAnErrorAndStoresNothing() throws {
        try withStore { (_: ArrayAdapter) throws in
            let a = Task(name: "a")
            a.id = 7
            try a.save()
            let b = Task(name: "b")
            b.id = 7
            let error = #expect(throws: StoreError.self) { try b.save() }
            #expect(error?.kind == .duplicateID)
            #expect(b.isNew)
            #expect(try Task.count() == 1)
            #expect(try Task.find(7)?.name == "a")
        }
    }

    @Test func uuidIdsAreGeneratedOnFirstSave() throws {
        try withStore { (_: ArrayAdapter) throws in
            let d = Device()
            #expect(d.id == nil)
            try d.save()
            let id = try #require(d.id)
            #expect(try Device.find(id)?.id == id)
            let e = Device()
            let chosen = UUID()
            e.id = chosen
            try e.save()
            #expect(e.id == chosen)
        }
    }

    @Test func stringIdsMustBeProvided() throws {
        try withStore { (_: ArrayAdapter) throws in
            let c = Country()
            c.name = "France"
            let error = #expect(throws: ModelError.self) { try c.save() }
            #expect(error?.kind == .missingID)
            #expect(c.isNew)
            c.id = "fr"
            try c.save()
            #expect(try Country.find("fr")?.name == "France")
        }
    }

    @Test func idOfAStoredRecordCannotChange() throws {
        try withStore { (_: ArrayAdapter) throws in
            let a = Task(name: "a")
            try a.save()
            a.id = 99
            let error = #expect(throws: ModelError.self) { try a.save() }
            #expect(error?.kind == .idChanged)
            #expect(try Task.find(1)?.name == "a")
            #expect(try Task.find(99) == nil)
        }
    }
}
