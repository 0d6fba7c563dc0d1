import ArrayAdapter
import Foundation
import Testing

final class Person: Model {
    @Column var name: String = ""
    @Column var age: Int?
    @Column var city: String?
    @Column var score: Double = 0
    @Column var joined: Date?
    @Column var active: Bool = true
    var log: [String] = []
    init() {}

    func beforeUpdate() throws -> Bool {
        log.append("beforeUpdate")
        return true
    }
}

extension Person {
    /// Named scopes (Courier / Rails style).
    static let seasoned = Person.where(\.age >= 35)
    static let parisian = Person.where("city").eq("Paris")
    /// A dynamic scope.
    static func olderThan(_ age: Int) -> Query<Person> { Person.where(\.age > age) }
}

/// Scopes chainable on any person query.
extension Query where M == Person {
    var active: Query<Person> { self.where(\.active == true) }
    func scoring(atLeast score: Double) -> Query<Person> { self.where(\.score >= score) }
}

/// name, age, city, score, active — ids 1...8 in this order.
let people: [(String, Int?, String?, Double, Bool)] = [
    ("Ann", 34, "Paris", 8.5, true),
    ("Bob", 41, "Seattle", 6.0, true),
    ("cara", nil, "Paris", 9.25, false),
    ("Dan", 30, nil, 7.0, true),
    ("Eve", 40, "paris", 6.0, true),
    ("Finn", 25, "Berlin", 9.25, true),
    ("Gus", 35, "Paris", 5.5, false),
    ("Ann Marie", 52, "Seattle", 4.0, true),
]

/// A fresh store seeded with `people`, made the scope's store.
func withPeople<R>(_ body: (ArrayAdapter) throws -> R) throws -> R {
    let store = ArrayAdapter()
    return try ModelStore.using(store) {
        for (k, p) in people.enumerated() {
            let person = Person()
            (person.name, person.age, person.city, person.score, person.active) = p
            person.joined = Date(timeIntervalSince1970: 1_000_000 + Double(k) * 86_400)
            try person.save()
        }
        return try body(store)
    }
}

/// Names of the records, for compact expectations.
func names(_ records: [Person]) -> [String] { records.map(\.name) }

/// An adapter that counts the calls reaching it (to prove laziness and call counts).
final class SpyAdapter: PersistenceAdapter {
    let base: ArrayAdapter
    let calls = Locked<[String]>([])
    init(_ base: ArrayAdapter) { self.base = base }
    private func note(_ call: String) { calls.withLock { $0.append(call) } }
    func prepare(_ schema: ModelSchema) throws { try base.prepare(schema) }
    func close() throws { try base.close() }
    func insert(_ row: [ModelValue], into schema: ModelSchema) throws -> ModelValue {
        note("insert")
        return try base.insert(row, into: schema)
    }
    func update(_ row: [ModelValue], changedColumns: [Int], in schema: ModelSchema) throws {
        note("update")
        try base.update(row, changedColumns: changedColumns, in: schema)
    }
    func delete(id: ModelValue, from schema: ModelSchema) throws -> Bool {
        note("delete")
        return try base.delete(id: id, from: schema)
    }
    func find(id: ModelValue, in schema: ModelSchema) throws -> [ModelValue]? {
        note("find")
        return try base.find(id: id, in: schema)
    }
    func fetch(_ query: StoreQuery) throws -> [[ModelValue]] {
        note("fetch")
        return try base.fetch(query)
    }
    func count(_ query: StoreQuery) throws -> Int {
        note("count")
        return try base.count(query)
    }
    func delete(_ query: StoreQuery) throws -> Int {
        note("deleteQuery")
        return try base.delete(query)
    }
    func update(_ query: StoreQuery, set values: [Int: ModelValue]) throws -> Int {
        note("updateQuery")
        return try base.update(query, set: values)
    }
    func aggregate(_ query: StoreQuery) throws -> [AggregateGroup] {
        note("aggregate")
        return try base.aggregate(query)
    }
    func withTransaction<R>(_ body: () throws -> R) throws -> R { try base.withTransaction(body) }
}
