import Foundation

/// Issue 41's second baseline for the ArrayAdapter workloads: the limit of the model API's
/// shape rather than of plain structs read in place. A record is a final class; the store
/// keeps each row as a struct in an `[Int64: PersonRow]` dictionary behind a lock (so it
/// can be shared between threads), copies a record's fields in on save, and makes a new
/// object per row on every lookup and fetch — what a thread-safe store handing out
/// reference-type records has to do at least.
final class PersonObject {
    var id: Int64 = 0
    var name = ""
    var email = ""
    var age = 0
    var score = 0.0
    var active = false
    var joined = Date(timeIntervalSince1970: 0)
    var notes: String?
    var rank: Int64 = 0
    var balance = 0.0
    var city = ""

    init() {}

    init(_ row: PersonRow) {
        (id, name, email, age, score, active) = (row.id, row.name, row.email, row.age, row.score, row.active)
        (joined, notes, rank, balance, city) = (row.joined, row.notes, row.rank, row.balance, row.city)
    }

    var row: PersonRow {
        PersonRow(
            id: id, name: name, email: email, age: age, score: score, active: active, joined: joined, notes: notes,
            rank: rank, balance: balance, city: city)
    }

    func fill(_ k: Int) {
        let row = Fixture.row(k)
        (name, email, age, score, active) = (row.name, row.email, row.age, row.score, row.active)
        (joined, notes, rank, balance, city) = (row.joined, row.notes, row.rank, row.balance, row.city)
    }
}

/// The store of ``PersonObject`` records: rows by id under one lock.
final class LockedClassStore: @unchecked Sendable {
    // @unchecked Sendable: `rows` and `nextID` are only touched while holding `lock`.
    private let lock = NSLock()
    private var rows: [Int64: PersonRow] = [:]
    private var nextID: Int64 = 1

    init(capacity: Int = 0) { rows.reserveCapacity(capacity) }

    /// Stores a new record, giving it the next id.
    func insert(_ object: PersonObject) {
        lock.withLock {
            object.id = nextID
            nextID += 1
            rows[object.id] = object.row
        }
    }

    /// Writes a stored record's fields back.
    func update(_ object: PersonObject) -> Bool {
        lock.withLock {
            guard rows[object.id] != nil else { return false }
            rows[object.id] = object.row
            return true
        }
    }

    func delete(_ object: PersonObject) -> Bool {
        lock.withLock { rows.removeValue(forKey: object.id) != nil }
    }

    /// A new object for the row with this id.
    func find(_ id: Int64) -> PersonObject? {
        lock.withLock { rows[id].map(PersonObject.init) }
    }

    /// A new object per row.
    func all() -> [PersonObject] {
        lock.withLock { rows.values.map(PersonObject.init) }
    }

    /// New objects for the rows `isIncluded` accepts.
    func filter(_ isIncluded: (PersonRow) -> Bool) -> [PersonObject] {
        lock.withLock { rows.values.filter(isIncluded).map(PersonObject.init) }
    }
}

/// The ArrayAdapter workloads' timings on ``LockedClassStore``, by workload name.
enum LockedClassBaseline {
    static func seeded(_ n: Int) -> (LockedClassStore, [PersonObject]) {
        let store = LockedClassStore(capacity: n)
        let objects = (0..<n).map { k in
            let object = PersonObject()
            object.fill(k)
            store.insert(object)
            return object
        }
        return (store, objects)
    }

    static func insert(_ n: Int) -> Duration {
        let store = LockedClassStore()
        let d = time {
            for k in 0..<n {
                let object = PersonObject()
                object.fill(k)
                store.insert(object)
            }
        }
        blackHole(store)
        return d
    }

    static func fetchAll(_ n: Int) -> Duration {
        let (store, _) = seeded(n)
        return time {
            var sum = 0
            for object in store.all() { sum &+= object.age }
            blackHole(sum)
        }
    }

    static func lookupsByID(_ n: Int) -> Duration {
        let (store, _) = seeded(n)
        let ids = Fixture.lookupIDs(lookups, n: n)
        return time {
            var sum = 0
            for id in ids { sum &+= store.find(id)?.age ?? 0 }
            blackHole(sum)
        }
    }

    static func filtered(_ n: Int) -> Duration {
        let (store, _) = seeded(n)
        return time {
            var sum = 0.0
            for _ in 0..<queryRepeats {
                let matches = store.filter { $0.age >= 30 && $0.age <= 40 && $0.city == "Paris" }
                for object in matches.sorted(by: { $0.score > $1.score }).prefix(100) { sum += object.score }
            }
            blackHole(sum)
        }
    }

    static func updateAll(_ n: Int) -> Duration {
        let (store, objects) = seeded(n)
        return time {
            var missing = 0
            for object in objects {
                object.score += 1
                if !store.update(object) { missing += 1 }
            }
            blackHole(missing)
        }
    }

    static func deleteHalf(_ n: Int) -> Duration {
        let (store, objects) = seeded(n)
        return time {
            var missing = 0
            for (k, object) in objects.enumerated() where k % 2 == 0 {
                if !store.delete(object) { missing += 1 }
            }
            blackHole(missing)
        }
    }
}
