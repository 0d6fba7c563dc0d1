import ArrayAdapter
import Foundation

/// The 10-column model every workload uses.
final class Person: Model {
    @Column var name: String = ""
    @Column var email: String = ""
    @Column var age: Int = 0
    @Column var score: Double = 0
    @Column var active: Bool = false
    @Column var joined: Date = Date(timeIntervalSince1970: 0)
    @Column var notes: String?
    @Column var rank: Int64 = 0
    @Column var balance: Double = 0
    @Column var city: String = ""
    init() {}
}

/// The same ten fields as a plain struct: the baseline's element (Codable for the JSON
/// baseline of FileAdapter).
struct PersonRow: Codable {
    var id: Int64
    var name: String
    var email: String
    var age: Int
    var score: Double
    var active: Bool
    var joined: Date
    var notes: String?
    var rank: Int64
    var balance: Double
    var city: String
}

/// The baseline store: an insertion-ordered array of structs plus an id index, the way a
/// hand-written in-memory cache would be (deletes leave a tombstone, as ArrayAdapter does).
struct PlainStore {
    var rows: [PersonRow?] = []
    var index: [Int64: Int] = [:]
    var nextID: Int64 = 1

    mutating func insert(_ row: PersonRow) -> Int64 {
        var row = row
        row.id = nextID
        nextID += 1
        index[row.id] = rows.count
        rows.append(row)
        return row.id
    }
}

@inline(never) func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

enum Fixture {
    static let names = (0..<1_000).map { "person-\($0)" }
    static let cities = ["Paris", "London", "Berlin", "Madrid", "Rome", "Lisbon", "Vienna"]

    static func fill(_ p: Person, _ k: Int) {
        p.name = names[k % names.count]
        p.email = "p\(k)@example.com"
        p.age = k % 90
        p.score = Double(k) * 0.5
        p.active = k % 2 == 0
        p.joined = Date(timeIntervalSince1970: Double(k))
        p.notes = k % 3 == 0 ? nil : "note"
        p.rank = Int64(k)
        p.balance = Double(k) * 1.25
        p.city = cities[k % cities.count]
    }

    static func row(_ k: Int) -> PersonRow {
        PersonRow(
            id: 0, name: names[k % names.count], email: "p\(k)@example.com", age: k % 90, score: Double(k) * 0.5,
            active: k % 2 == 0, joined: Date(timeIntervalSince1970: Double(k)), notes: k % 3 == 0 ? nil : "note",
            rank: Int64(k), balance: Double(k) * 1.25, city: cities[k % cities.count])
    }

    /// Record `k`'s row as an adapter takes it (id nil), for timing adapters alone.
    static func values(_ k: Int) -> [ModelValue] {
        let r = row(k)
        return [
            .null, .string(r.name), .string(r.email), .int(Int64(r.age)), .double(r.score), .bool(r.active),
            .date(r.joined), r.notes.map { .string($0) } ?? .null, .int(r.rank), .double(r.balance), .string(r.city),
        ]
    }

    /// Deterministic pseudo-random ids in 1...n.
    static func lookupIDs(_ count: Int, n: Int) -> [Int64] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int64(state >> 33) % Int64(n) + 1
        }
    }
}

/// Times the filtered query every adapter's workload runs: `age BETWEEN 30 AND 40 AND
/// city == "Paris" ORDER BY score DESC LIMIT 100`, `repeats` times.
func timeFilteredQuery(_ store: any PersistenceAdapter, repeats: Int) throws -> Duration {
    let query = Person.where(.between(\.age, 30, 40) && \.city == "Paris")
        .order(by: \.score, .descending)
        .limit(100)
        .using(store)
    return try time {
        var sum = 0.0
        for _ in 0..<repeats {
            for p in try query.all() { sum += p.score }
        }
        blackHole(sum)
    }
}
