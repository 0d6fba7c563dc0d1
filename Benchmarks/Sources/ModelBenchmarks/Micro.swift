import ArrayAdapter
import Foundation

/// `--micro`: per-operation costs of the pieces behind the workloads, for profiling.
enum Micro {
    static func run() throws {
        let n = 100_000
        let (store, _) = try seededStore(n)
        let schema = Person.schema
        func report(_ name: String, _ d: Duration) {
            let ns = nanoseconds(d, per: n)
            print(name.padding(toLength: 18, withPad: " ", startingAt: 0) + String(format: "%8.1f ns/op", ns))
        }
        report("Person()", time { for _ in 0..<n { blackHole(Person()) } })
        report("Person() + read", time { for _ in 0..<n { blackHole(Person().age) } })
        report("adapter find", try time { for k in 0..<n { blackHole(try store.find(id: .int(Int64(k + 1)), in: schema)) } })
        report("Person.find", try time { for k in 0..<n { blackHole(try Person.find(Int64(k + 1), in: store)) } })
        let p = Person()
        report("set column", time { for k in 0..<n { p.age = k } })
        report("get column", time { var s = 0; for _ in 0..<n { s &+= p.age }; blackHole(s) })
        report("fill 10 columns", time { for k in 0..<n { Fixture.fill(p, k) } })
        try writeLayers(n, report)
    }

    /// Issue 41: what an insert, an update and a delete cost per layer on ArrayAdapter —
    /// the record, the model layer's save, the adapter — each timed alone.
    static func writeLayers(_ n: Int, _ report: (String, Duration) -> Void) throws {
        let schema = Person.schema
        let rows = (0..<n).map(Fixture.values)
        report("Person() + fill", time { for k in 0..<n { let p = Person(); Fixture.fill(p, k); blackHole(p) } })
        let filled = (0..<n).map { k in
            let p = Person()
            Fixture.fill(p, k)
            return p
        }
        do {
            let store = ArrayAdapter()
            try store.prepare(schema)
            report("adapter.insert row", try time { for row in rows { blackHole(try store.insert(row, into: schema)) } })
        }
        do {
            let store = ArrayAdapter()
            try store.prepare(schema)
            report("save (insert)", try time { for p in filled { try p.save(to: store) } })
            let changed = try filled.map { p in
                var row = try store.find(id: .int(p.id ?? 0), in: schema) ?? []
                if case .double(let d) = row[4] { row[4] = .double(d + 1) }
                return row
            }
            report("adapter.update row", try time { for row in changed { try store.update(row, changedColumns: [4], in: schema) } })
            report("save (update)", try time { for p in filled { p.score += 2; try p.save() } })
            report("adapter.delete id", try time {
                for p in filled.prefix(n / 2) { blackHole(try store.delete(id: .int(p.id ?? 0), from: schema)) }
            })
            report("delete()", try time { for p in filled.suffix(n / 2) { try p.delete() } })
        }
    }
}

/// `--micro-sqlite`: where the SQLite insert and update time goes, per record.
enum MicroSQLite {
    static func run() throws {
        let n = 50_000
        func report(_ name: String, _ d: Duration) {
            let ns = nanoseconds(d, per: n)
            print(name.padding(toLength: 34, withPad: " ", startingAt: 0) + String(format: "%8.1f ns/op", ns))
        }
        let schema = Person.schema
        let rows = (0..<n).map(Fixture.values)
        do {
            let db = try BenchDatabase()
            let store = try db.adapter()
            report("adapter.insert rows (1 tx)", try time { try store.withTransaction { for row in rows { _ = try store.insert(row, into: schema) } } })
        }
        report("Person() + fill", time { for k in 0..<n { let p = Person(); Fixture.fill(p, k); blackHole(p) } })
        do {
            let db = try BenchDatabase()
            let store = try db.adapter()
            report("model save, adapter tx only", try time { try store.withTransaction { for k in 0..<n { let p = Person(); Fixture.fill(p, k); try p.save(to: store) } } })
        }
        do {
            let db = try BenchDatabase()
            let store = try db.adapter()
            report("model save, model tx", try time { try store.transaction { for k in 0..<n { let p = Person(); Fixture.fill(p, k); try p.save(to: store) } } })
        }
        do {
            let db = try BenchDatabase()
            let store = try db.adapter()
            report("model save, model tx, no notify", try time { try ModelNotifications.withoutNotifications { try store.transaction { for k in 0..<n { let p = Person(); Fixture.fill(p, k); try p.save(to: store) } } } })
        }
        do {
            let db = try BenchDatabase(seed: n)
            let store = try db.adapter()
            let query = StoreQuery(schema: schema)
            _ = try store.fetch(query)
            report("adapter.fetch all rows", try time { blackHole(try store.fetch(query)) })
            report("Person.all", try time { blackHole(try Person.all(in: store)) })
            let rows = try store.fetch(query)
            report("materialize only", time { blackHole(rows.map { _ in Person() }) })
            let changed = rows.map { row -> [ModelValue] in
                var row = row
                if case .double(let d) = row[4] { row[4] = .double(d + 1) }
                return row
            }
            report("adapter.update rows (1 tx)", try time { try store.withTransaction { for row in changed { try store.update(row, changedColumns: [4], in: schema) } } })
            let people = try Person.all(in: store)
            report("model update, adapter tx", try time { try store.withTransaction { for p in people { p.score += 1; try p.save() } } })
            report("model update, model tx", try time { try store.transaction { for p in people { p.score += 1; try p.save() } } })
            let posted = ModelNotifications.postsToNotificationCenter
            ModelNotifications.postsToNotificationCenter = true
            report("model update, model tx, center", try time { try store.transaction { for p in people { p.score += 1; try p.save() } } })
            ModelNotifications.postsToNotificationCenter = posted
        }
        do {
            let store = ArrayAdapter()
            report("ArrayAdapter save, model tx", try time { try store.transaction { for k in 0..<n { let p = Person(); Fixture.fill(p, k); try p.save(to: store) } } })
        }
    }
}

/// `--micro-tx [N]`: what a model transaction adds to each in-memory save.
enum MicroTransaction {
    static func run(_ n: Int) throws {
        func report(_ name: String, _ d: Duration) {
            let ns = nanoseconds(d, per: n)
            print(name.padding(toLength: 34, withPad: " ", startingAt: 0) + String(format: "%8.1f ns/op", ns))
        }
        for _ in 0..<3 {
            do {
                let store = ArrayAdapter()
                report("ArrayAdapter save, no tx", try time { for k in 0..<n { let p = Person(); Fixture.fill(p, k); try p.save(to: store) } })
            }
            do {
                let store = ArrayAdapter()
                report("ArrayAdapter save, adapter tx", try time { try store.withTransaction { for k in 0..<n { let p = Person(); Fixture.fill(p, k); try p.save(to: store) } } })
            }
            do {
                let store = ArrayAdapter()
                report("ArrayAdapter save, model tx", try time { try store.transaction { for k in 0..<n { let p = Person(); Fixture.fill(p, k); try p.save(to: store) } } })
            }
        }
    }
}
