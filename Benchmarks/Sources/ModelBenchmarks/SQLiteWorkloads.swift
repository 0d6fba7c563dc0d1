import CSQLiteRaw
import Foundation
import SQLiteAdapter

/// Lookups and filtered-query repetitions for the SQLite workloads.
let sqliteQueryRepeats = 200

/// A database file in a fresh temporary directory, with the `person` table created by
/// SQLiteAdapter and the (city, age) index, optionally seeded with `n` rows (raw inserts).
final class BenchDatabase {
    let directory: URL
    let path: String

    init(seed n: Int = 0) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("swiftmodel-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("bench.sqlite").path
        do {
            let store = try SQLiteAdapter(path: path)
            try store.prepare(Person.schema)
            var migrator = SQLiteMigrator()
            migrator.register("person: city and age") { db in
                try db.execute("CREATE INDEX \"person_city_age\" ON \(RawSQL.table) (\"city\", \"age\")")
            }
            try migrator.migrate(store)
        }
        if n > 0 {
            let raw = try RawSQLite(path: path)
            let insert = try raw.prepare(RawSQL.insert)
            defer { sqlite3_finalize(insert) }
            try raw.transaction {
                for k in 0..<n {
                    RawSQLite.bind(Fixture.row(k), insert, from: 1)
                    guard sqlite3_step(insert) == SQLITE_DONE else { throw BenchmarkError("seed insert failed") }
                    sqlite3_reset(insert)
                }
            }
        }
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func adapter() throws -> SQLiteAdapter { try SQLiteAdapter(path: path) }
    func raw() throws -> RawSQLite { try RawSQLite(path: path) }
}

/// The baseline's SQL, on the table SQLiteAdapter made for `Person` (its name comes from the
/// schema, so a change of default table names cannot break the baseline again).
enum RawSQL {
    static let table = "\"" + Person.schema.tableName + "\""
    static let columns = "name, email, age, score, active, joined, notes, rank, balance, city"
    static let insert = "INSERT INTO \(table) (\(columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    static let selectAll = "SELECT id, \(columns) FROM \(table)"
    static let find = "SELECT id, \(columns) FROM \(table) WHERE id = ?"
    static let filtered =
        "SELECT id, \(columns) FROM \(table) WHERE age BETWEEN ? AND ? AND city = ? ORDER BY score DESC LIMIT 100"
    static let updateScore = "UPDATE \(table) SET score = ? WHERE id = ?"
    static let delete = "DELETE FROM \(table) WHERE id = ?"
}

/// Runs `body` over every row `statement` returns.
func eachRow(_ statement: OpaquePointer, _ body: (OpaquePointer) -> Void) throws {
    while true {
        let code = sqlite3_step(statement)
        if code == SQLITE_DONE { break }
        guard code == SQLITE_ROW else { throw BenchmarkError("step failed: \(code)") }
        body(statement)
    }
    sqlite3_reset(statement)
}

/// Every row `sql` returns, each made by `row` (the statement prepared and finalized here).
func allRows<Row>(_ raw: RawSQLite, _ sql: String, _ row: (OpaquePointer) -> Row) throws -> [Row] {
    let statement = try raw.prepare(sql)
    defer { sqlite3_finalize(statement) }
    var rows: [Row] = []
    try eachRow(statement) { rows.append(row($0)) }
    return rows
}

/// Steps a statement that returns no rows, then resets it.
func runToEnd(_ statement: OpaquePointer) throws {
    guard sqlite3_step(statement) == SQLITE_DONE else { throw BenchmarkError("statement failed") }
    sqlite3_reset(statement)
}

let sqliteWorkloads: [Workload] = [
    Workload(
        name: "insert",
        model: { n in
            let db = try BenchDatabase()
            let store = try db.adapter()
            defer { blackHole(db) }
            return try time {
                try store.transaction {
                    for k in 0..<n {
                        let p = Person()
                        Fixture.fill(p, k)
                        try p.save(to: store)
                    }
                }
            }
        },
        baseline: { n in
            try measureRaw(seed: 0) { raw in
                let insert = try raw.prepare(RawSQL.insert)
                defer { sqlite3_finalize(insert) }
                return try time {
                    try raw.transaction {
                        for k in 0..<n {
                            RawSQLite.bind(Fixture.row(k), insert, from: 1)
                            try runToEnd(insert)
                        }
                    }
                }
            }
        }),
    Workload(
        name: "fetch all",
        model: { n in
            let (db, store) = try seededAdapter(n)
            defer { blackHole(db) }  // keeps the file until the timing ends
            return try time {
                let all = try Person.all(in: store)
                var sum = 0
                for p in all { sum &+= p.age }
                blackHole(sum)
            }
        },
        baseline: { n in
            try measureRaw(seed: n) { raw in
                let select = try raw.prepare(RawSQL.selectAll)
                defer { sqlite3_finalize(select) }
                return try time {
                    var all: [PersonRow] = []
                    try eachRow(select) { all.append(RawSQLite.row($0)) }
                    var sum = 0
                    for p in all { sum &+= p.age }
                    blackHole(sum)
                }
            }
        },
        reference: { n in try ClassPerRowSQLite.fetchAll(n) }),
    Workload(
        name: "10k lookups by id",
        model: { n in
            let (db, store) = try seededAdapter(n)
            defer { blackHole(db) }  // keeps the file until the timing ends
            let ids = Fixture.lookupIDs(lookups, n: n)
            _ = try Person.find(1, in: store)
            return try time {
                var sum = 0
                for id in ids { sum &+= try Person.find(id, in: store)?.age ?? 0 }
                blackHole(sum)
            }
        },
        baseline: { n in
            try measureRaw(seed: n) { raw in
                let find = try raw.prepare(RawSQL.find)
                defer { sqlite3_finalize(find) }
                let ids = Fixture.lookupIDs(lookups, n: n)
                return try time {
                    var sum = 0
                    for id in ids {
                        sqlite3_bind_int64(find, 1, id)
                        try eachRow(find) { sum &+= RawSQLite.row($0).age }
                    }
                    blackHole(sum)
                }
            }
        },
        reference: { n in try ClassPerRowSQLite.lookupsByID(n, lookups: lookups) }),
    Workload(
        name: "filtered query x200",
        model: { n in
            let (db, store) = try seededAdapter(n)
            defer { blackHole(db) }  // keeps the file until the timing ends
            return try timeFilteredQuery(store, repeats: sqliteQueryRepeats)
        },
        baseline: { n in
            try measureRaw(seed: n) { raw in
                try timeRawFiltered(raw, repeats: sqliteQueryRepeats, RawSQLite.row, score: \.score)
            }
        },
        reference: { n in try ClassPerRowSQLite.filtered(n, repeats: sqliteQueryRepeats) }),
    Workload(
        name: "update all",
        model: { n in
            let (db, store) = try seededAdapter(n)
            defer { blackHole(db) }  // keeps the file until the timing ends
            let people = try Person.all(in: store)
            return try time {
                try store.transaction {
                    for p in people {
                        p.score += 1
                        try p.save()
                    }
                }
            }
        },
        baseline: { n in
            try measureRaw(seed: n) { raw in
                let select = try raw.prepare(RawSQL.selectAll)
                var rows: [PersonRow] = []
                try eachRow(select) { rows.append(RawSQLite.row($0)) }
                sqlite3_finalize(select)
                let update = try raw.prepare(RawSQL.updateScore)
                defer { sqlite3_finalize(update) }
                return try time {
                    try raw.transaction {
                        for k in rows.indices {
                            rows[k].score += 1
                            sqlite3_bind_double(update, 1, rows[k].score)
                            sqlite3_bind_int64(update, 2, rows[k].id)
                            try runToEnd(update)
                        }
                    }
                }
            }
        }),
    Workload(
        name: "delete half",
        model: { n in
            let (db, store) = try seededAdapter(n)
            defer { blackHole(db) }  // keeps the file until the timing ends
            let people = try Person.all(in: store)
            return try time {
                try store.transaction {
                    for (k, p) in people.enumerated() where k % 2 == 0 { try p.delete() }
                }
            }
        },
        baseline: { n in
            try measureRaw(seed: n) { raw in
                let delete = try raw.prepare(RawSQL.delete)
                defer { sqlite3_finalize(delete) }
                return try time {
                    try raw.transaction {
                        for id in stride(from: Int64(1), through: Int64(n), by: 2) {
                            sqlite3_bind_int64(delete, 1, id)
                            try runToEnd(delete)
                        }
                    }
                }
            }
        }),
]

/// Times the filtered query `repeats` times with the raw API, each matching row made by
/// `row` (a struct for the baseline, an object for the reference), summing `score`.
func timeRawFiltered<Row>(_ raw: RawSQLite, repeats: Int, _ row: (OpaquePointer) -> Row, score: (Row) -> Double) throws
    -> Duration
{
    let select = try raw.prepare(RawSQL.filtered)
    defer { sqlite3_finalize(select) }
    return try time {
        var sum = 0.0
        for _ in 0..<repeats {
            sqlite3_bind_int64(select, 1, 30)
            sqlite3_bind_int64(select, 2, 40)
            RawSQLite.bind("Paris", select, 3)
            var rows: [Row] = []
            try eachRow(select) { rows.append(row($0)) }
            for p in rows { sum += score(p) }
        }
        blackHole(sum)
    }
}

/// A seeded database and an adapter on it (keep `db` alive: it deletes the file).
func seededAdapter(_ n: Int) throws -> (BenchDatabase, SQLiteAdapter) {
    let db = try BenchDatabase(seed: n)
    return (db, try db.adapter())
}

/// Opens a seeded database with the raw API and times `body`.
func measureRaw(seed n: Int, _ body: (RawSQLite) throws -> Duration) throws -> Duration {
    let db = try BenchDatabase(seed: n)
    let raw = try db.raw()
    return try body(raw)
}
