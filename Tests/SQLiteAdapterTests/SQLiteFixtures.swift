import ArrayAdapter
import Foundation
import SQLiteAdapter
import Testing
@_exported import TestSupport

/// Every column type, for round trips and schema checks.
final class Gadget: Model {
    @Column var name: String = ""
    @Column(options: .text) var manual: String = ""
    @Column var count: Int = 0
    @Column var big: Int64 = 0
    @Column var ratio: Double = 0
    @Column var enabled: Bool = false
    @Column var made: Date = Date(timeIntervalSinceReferenceDate: 0)
    @Column var serial: UUID = UUID()
    @Column var payload: Data = Data()
    @Column var tags: [String] = []
    @Column var specs: [String: ModelValue] = [:]
    @Column var note: String?
    @Column(default: 7) var level: Int?
    @Column(options: .unique) var code: String?
    init() {}
}

/// The query fixture: nullable columns of each comparable kind.
final class Citizen: Model {
    @Column var name: String = ""
    @Column var age: Int?
    @Column var city: String?
    @Column var score: Double = 0
    @Column var joined: Date?
    @Column var active: Bool = true
    init() {}
}

/// name, age, city, score, active.
let citizens: [(String, Int?, String?, Double, Bool)] = [
    ("Ann", 34, "Paris", 8.5, true),
    ("Bob", 41, "Seattle", 6.0, true),
    ("cara", nil, "Paris", 9.25, false),
    ("Dan", 30, nil, 7.0, true),
    ("Eve", 40, "paris", 6.0, true),
    ("Finn", 25, "Berlin", 9.25, true),
    ("Gus", 35, "Paris", 5.5, false),
    ("Ann Marie", 52, "Seattle", 4.0, true),
    ("100% _real_ \\o/", 0, "Pa%is", -1.5, false),
    ("Ünïcødé 🐶", 77, "Zürich", 1e10, true),
    ("'; DROP TABLE citizen; --", 18, "\"quoted\"", 0, true),
]

/// Seeds `store` with `citizens` (ids 1...n in this order).
func seedCitizens(_ store: any PersistenceAdapter) throws {
    for (k, c) in citizens.enumerated() {
        let citizen = Citizen()
        (citizen.name, citizen.age, citizen.city, citizen.score, citizen.active) = c
        citizen.joined = k == 4 ? nil : Date(timeIntervalSince1970: 1_000_000 + Double(k % 5) * 86_400.25)
        try citizen.save(to: store)
    }
}

/// A fresh in-memory SQLite store made the scope's store.
@discardableResult
func withSQLite<R>(_ body: (SQLiteAdapter) throws -> R) throws -> R {
    let store = try SQLiteAdapter()
    return try ModelStore.using(store) { try body(store) }
}

/// The rows of a raw query, as `[column: value]` for compact expectations.
func table(_ store: SQLiteAdapter, _ sql: String, _ arguments: [ModelValue] = []) throws -> [[String: ModelValue]] {
    try store.rows(sql, arguments).map { row in
        Dictionary(uniqueKeysWithValues: zip(row.columns, row.values))
    }
}

/// Relations on SQLite: shelves own books (destroyed with them); bookmarks only point.
final class Shelf: Model {
    @Column var label: String = ""
    @HasMany(dependent: .destroy) var books: Children<Book>
    init() {}
}

final class Book: Model {
    @Column var title: String = ""
    @BelongsTo var shelf: Shelf?
    @HasMany(dependent: .restrict) var loans: Children<Loan>
    init() {}
}

final class Bookmark: Model {
    @Column var page: Int = 0
    @BelongsTo var book: Book?
    init() {}
}

final class Loan: Model {
    typealias IDValue = UUID
    @Column var borrower: String = ""
    @BelongsTo var book: Book?
    init() {}
}
