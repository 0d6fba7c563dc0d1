import CLibPQRaw
import Foundation
import PostgresAdapter

/// `--postgres N`: the SQLite workloads on PostgreSQL (insert N, fetch all, 10k lookups by
/// id, filtered query ×200, update all, delete half), PostgresAdapter beside raw libpq in the
/// same run — raw using its best technique for each (pipeline mode for writes, binary
/// parameters and results, prepared statements). Each measurement gets a fresh schema on
/// the server `SWIFTMODEL_POSTGRES_URL` names (`Scripts/postgres-cluster.sh run -- …`).
/// `SWIFTMODEL_POSTGRES_TRANSACTION_POOLING=1` runs the adapter in its transaction-pooler
/// mode (unnamed statements, settings sent with each statement).
enum PostgresWorkloads {
    static let columns = "name, email, age, score, active, joined, notes, rank, balance, city"

    static func run(_ n: Int, runs: Int) throws {
        guard let url = ProcessInfo.processInfo.environment["SWIFTMODEL_POSTGRES_URL"] else {
            throw BenchmarkError("--postgres needs SWIFTMODEL_POSTGRES_URL (Scripts/postgres-cluster.sh run -- …)")
        }
        let lookupCount = min(10_000, n * 4)
        print("PostgreSQL, n = \(n), \(runs) run(s), median (ratio: PostgresAdapter / raw libpq)")
        try measure("insert", runs, n, url, seed: 0) { store, n in
            try time {
                try store.transaction {
                    for k in 0..<n {
                        let p = Person()
                        Fixture.fill(p, k)
                        try p.save(to: store)
                    }
                }
            }
        } raw: { raw, table, n in
            try raw.prepare("ins", "INSERT INTO \(table) (\(columns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)")
            let rows = (0..<n).map { RawPostgres.params(Fixture.row($0)) }
            return try time {
                try raw.exec("BEGIN")
                try raw.pipeline("ins", rows)
                try raw.exec("COMMIT")
            }
        }
        try measure("fetch all", runs, n, url, seed: n) { store, _ in
            try time {
                var sum = 0
                for p in try Person.all(in: store) { sum &+= p.age }
                blackHole(sum)
            }
        } raw: { raw, table, _ in
            try raw.prepare("all", "SELECT id, \(columns) FROM \(table)")
            return try time {
                let result = try raw.query("all", [])
                defer { PQclear(result) }
                var all: [PersonRow] = []
                for r in 0..<PQntuples(result) { all.append(RawPostgres.person(result, r)) }
                var sum = 0
                for p in all { sum &+= p.age }
                blackHole(sum)
            }
        }
        try measure("\(lookupCount) lookups by id", runs, n, url, seed: n) { store, n in
            let ids = Fixture.lookupIDs(lookupCount, n: n)
            _ = try Person.find(1, in: store)
            return try time {
                var sum = 0
                for id in ids { sum &+= try Person.find(id, in: store)?.age ?? 0 }
                blackHole(sum)
            }
        } raw: { raw, table, n in
            try raw.prepare("find", "SELECT id, \(columns) FROM \(table) WHERE id = $1")
            let ids = Fixture.lookupIDs(lookupCount, n: n)
            return try time {
                var sum = 0
                for id in ids {
                    let result = try raw.query("find", [RawPostgres.int8(id)])
                    if PQntuples(result) > 0 { sum &+= RawPostgres.person(result, 0).age }
                    PQclear(result)
                }
                blackHole(sum)
            }
        }
        try measure("filtered query x200", runs, n, url, seed: n) { store, _ in
            try timeFilteredQuery(store, repeats: 200)
        } raw: { raw, table, _ in
            try raw.prepare(
                "filtered",
                "SELECT id, \(columns) FROM \(table) WHERE age >= $1 AND age <= $2 AND city = $3 ORDER BY score DESC LIMIT 100")
            return try time {
                var sum = 0.0
                for _ in 0..<200 {
                    let result = try raw.query("filtered", [RawPostgres.int8(30), RawPostgres.int8(40), RawPostgres.text("Paris")])
                    var rows: [PersonRow] = []
                    for r in 0..<PQntuples(result) { rows.append(RawPostgres.person(result, r)) }
                    PQclear(result)
                    for p in rows { sum += p.score }
                }
                blackHole(sum)
            }
        }
        try measure("update all", runs, n, url, seed: n) { store, _ in
            let people = try Person.all(in: store)
            return try time {
                try store.transaction {
                    for p in people {
                        p.score += 1
                        try p.save()
                    }
                }
            }
        } raw: { raw, table, n in
            try raw.prepare("upd", "UPDATE \(table) SET score = $1 WHERE id = $2")
            let rows = (1...n).map { [RawPostgres.float8(Double($0) * 0.5 + 1), RawPostgres.int8(Int64($0))] as [[UInt8]?] }
            return try time {
                try raw.exec("BEGIN")
                try raw.pipeline("upd", rows)
                try raw.exec("COMMIT")
            }
        }
        try measure("delete half", runs, n, url, seed: n) { store, _ in
            let people = try Person.all(in: store)
            return try time {
                try store.transaction {
                    for (k, p) in people.enumerated() where k % 2 == 0 { try p.delete() }
                }
            }
        } raw: { raw, table, n in
            try raw.prepare("del", "DELETE FROM \(table) WHERE id = $1")
            let rows = stride(from: Int64(1), through: Int64(n), by: 2).map { [RawPostgres.int8($0)] as [[UInt8]?] }
            return try time {
                try raw.exec("BEGIN")
                try raw.pipeline("del", rows)
                try raw.exec("COMMIT")
            }
        }
    }

    /// Median of `runs` measurements of each side, each on a fresh schema seeded with
    /// `seed` rows (by raw pipelined inserts).
    static func measure(
        _ name: String, _ runs: Int, _ n: Int, _ url: String, seed: Int,
        model: (PostgresAdapter, Int) throws -> Duration, raw: (RawPostgres, String, Int) throws -> Duration
    ) throws {
        var modelTimes: [Double] = []
        var rawTimes: [Double] = []
        for _ in 0..<max(1, runs) {
            let (store, rawConnection, table) = try fresh(url, seed: seed)
            rawTimes.append(seconds(try raw(rawConnection, table, n)))
            let (store2, _, _) = try fresh(url, seed: seed)
            modelTimes.append(seconds(try model(store2, n)))
            try? store.close()
            try? store2.close()
        }
        let m = modelTimes.sorted()[modelTimes.count / 2], r = rawTimes.sorted()[rawTimes.count / 2]
        print(
            "  " + name.padding(toLength: 24, withPad: " ", startingAt: 0)
                + String(format: "raw %9.2f ms   PostgresAdapter %9.2f ms   ratio %.2f×", r * 1000, m * 1000, m / r))
    }

    static func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }

    /// An adapter and a raw connection on a fresh schema holding the `person` table (made
    /// by the adapter, with the (city, age) index) and `seed` rows.
    static func fresh(_ url: String, seed: Int) throws -> (PostgresAdapter, RawPostgres, String) {
        var configuration = PostgresConfiguration(url)
        configuration.schema = "bench_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12)
        configuration.listensForChanges = false
        // The statements a transaction pooler needs (unnamed, settings per statement),
        // against the server itself: what they cost beside named statements.
        configuration.transactionPooling = ProcessInfo.processInfo.environment["SWIFTMODEL_POSTGRES_TRANSACTION_POOLING"] == "1"
        let store = try PostgresAdapter(configuration)
        try store.prepare(Person.schema)
        let table = "\"" + Person.schema.tableName + "\""
        try store.execute("CREATE INDEX person_city_age ON \(table) (city, age)")
        let raw = try RawPostgres(url)
        try raw.exec("SET search_path TO \"\(configuration.schema ?? "public")\"")
        if seed > 0 {
            try raw.prepare("seed", "INSERT INTO \(table) (\(columns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)")
            try raw.exec("BEGIN")
            try raw.pipeline("seed", (0..<seed).map { RawPostgres.params(Fixture.row($0)) })
            try raw.exec("COMMIT")
            try raw.exec("ANALYZE \(table)")
        }
        return (store, raw, table)
    }
}
