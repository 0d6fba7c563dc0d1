import ArrayAdapter
import Foundation
import ModelCore
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

    /// New records whose default factories make equal rows share one baseline, so their
    /// own rows are unshared and the first assignment writes in place; dirty tracking is
    /// unchanged (see `InitialRows`).
    @Test func equalInitialRowsShareOneBaseline() {
        _ = Tally().name  // the first record's initial row is the one kept
        let a = Tally(), b = Tally()
        _ = (a.name, b.name)  // attaches the schema, making each record's rows
        let address = { (row: [ModelValue]) in row.withUnsafeBufferPointer { $0.baseAddress } }
        #expect(address(a.__baseline) == address(b.__baseline))
        #expect(address(a.__values) != address(a.__baseline))
        let before = address(a.__values)
        a.name = "first"
        #expect(address(a.__values) == before, "the first assignment writes in place")
        #expect(a.changes == ["name": ColumnChange(old: "", new: "first")])
        #expect(!b.isDirty && b.name == "")
        a.revert()
        #expect(!a.isDirty && a.name == "")
    }

    /// A factory that makes a different value per record (a counter, `Date()`): each
    /// record's baseline is its own initial values, not another record's.
    @Test func differingInitialRowsKeepTheirOwnBaseline() {
        let records = (0..<4).map { _ in Numbered() }
        let numbers = records.map(\.number)
        #expect(Set(numbers).count == 4)
        #expect(records.allSatisfy { !$0.isDirty && $0.changes.isEmpty })
        for record in records { record.number = -1 }
        for record in records { record.revert() }
        #expect(records.map(\.number) == numbers)
        let stamped = (0..<3).map { _ in Defaults() }
        #expect(stamped.allSatisfy { !$0.isDirty })
    }
}

/// Defaults made by factories that give every record equal values.
final class Tally: Model {
    @Column var name: String = ""
    @Column var count: Int = 0
    @Column var ratio: Double = 0.5
    @Column var note: String?
    init() {}
}

/// A default made by a counter: a new value per record.
final class Numbered: Model {
    private static let counter = Locked(0)
    static func next() -> Int { counter.withLock { $0 += 1; return $0 } }
    @Column var number: Int = Numbered.next()
    init() {}
}
