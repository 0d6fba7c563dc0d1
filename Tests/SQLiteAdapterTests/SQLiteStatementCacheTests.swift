import AdapterConformance
import Dispatch
import Foundation
import SQLiteAdapter
@testable import SwiftModelSQLite
import SwiftModelCSQLite
import Synchronization
import Testing

/// Small tables for the statement and table caches: each names itself in `label`.
final class CacheShelfA: Model {
    @Column var label: String = ""
    @Column var count: Int = 0
    @Column var ratio: Double = 0
    init() {}
}
final class CacheShelfB: Model {
    @Column var label: String = ""
    @Column var count: Int = 0
    @Column var ratio: Double = 0
    init() {}
}
final class CacheShelfC: Model {
    @Column var label: String = ""
    init() {}
}
final class CacheShelfD: Model {
    @Column var label: String = ""
    init() {}
}
final class CacheShelfE: Model {
    @Column var label: String = ""
    init() {}
}
final class CacheShelfF: Model {
    @Column var label: String = ""
    init() {}
}

/// The per-connection statement caches (the table used last, the `UPDATE` used last) and
/// the adapter's lock-free table lookup hand each call its own table's statement.
@Suite struct SQLiteStatementCacheTests {
    /// Updates alternate between two tables and between column sets (one column, the
    /// same set again, another set, a set of two) in a seeded random order; every row on
    /// disk, read through a second connection, holds exactly what its record was given.
    @Test func interleavedUpdatesOfTwoTablesWriteTheirOwnColumns() throws {
        try withTemporaryDirectory { dir in
            let path = dir.appendingPathComponent("cache.sqlite").path
            let store = try SQLiteAdapter(path: path)
            var a: [CacheShelfA] = []
            var b: [CacheShelfB] = []
            for k in 0..<8 {
                let x = CacheShelfA()
                x.label = "a\(k)"
                try x.save(to: store)
                a.append(x)
                let y = CacheShelfB()
                y.label = "b\(k)"
                try y.save(to: store)
                b.append(y)
            }
            var random = SeededRandom(seed: 41)
            for step in 0..<600 {
                let k = Int(random.next() % 8)
                let which = random.next() % 4
                if random.next() % 2 == 0 {
                    let r = a[k]
                    if which == 0 || which == 3 { r.count = step }
                    if which == 1 || which == 3 { r.ratio = Double(step) / 4 }
                    if which == 2 { r.label = "a\(k)-\(step)" }
                    try r.save()
                } else {
                    let r = b[k]
                    if which == 0 || which == 3 { r.count = -step }
                    if which == 1 || which == 3 { r.ratio = -Double(step) / 4 }
                    if which == 2 { r.label = "b\(k)-\(step)" }
                    try r.save()
                }
            }
            let reader = try SQLiteAdapter(path: path)
            for r in a {
                let id = try #require(r.id)
                let row = try #require(try CacheShelfA.find(id, in: reader))
                #expect((row.label, row.count, row.ratio) == (r.label, r.count, r.ratio), "\(r.label)")
            }
            for r in b {
                let id = try #require(r.id)
                let row = try #require(try CacheShelfB.find(id, in: reader))
                #expect((row.label, row.count, row.ratio) == (r.label, r.count, r.ratio), "\(r.label)")
            }
        }
    }

    /// Readers on other threads find rows in every table published so far while new
    /// tables are published one by one: each lookup gets its own table's row.
    @Test func tablesPublishedWhileOthersAreReadAreFoundByTheirOwnSchema() throws {
        try withTemporaryDirectory { dir in
            let store = try SQLiteAdapter(path: dir.appendingPathComponent("tables.sqlite").path)
            let finders: [@Sendable () throws -> String?] = [
                { try CacheShelfA.find(1, in: store)?.label }, { try CacheShelfB.find(1, in: store)?.label },
                { try CacheShelfC.find(1, in: store)?.label }, { try CacheShelfD.find(1, in: store)?.label },
                { try CacheShelfE.find(1, in: store)?.label }, { try CacheShelfF.find(1, in: store)?.label },
            ]
            let labels = ["A", "B", "C", "D", "E", "F"]
            let published = Atomic<Int>(0)
            let done = Atomic<Bool>(false)
            let mismatches = Mutex<[String]>([])
            let readers = DispatchGroup()
            // Stops the readers however the publishing ends.
            defer {
                done.store(true, ordering: .releasing)
                readers.wait()
            }
            for reader in 0..<4 {
                DispatchQueue.global().async(group: readers) {
                    var k = reader
                    while !done.load(ordering: .acquiring) {
                        let visible = published.load(ordering: .acquiring)
                        if visible > 0, mismatches.withLock({ $0.count }) < 20 {
                            let table = k % visible
                            let found = Result { try finders[table]() }
                            if case .success(let label) = found, label == labels[table] {
                            } else {
                                mismatches.withLock { $0.append("\(labels[table]): \(found)") }
                            }
                        }
                        k += 1
                    }
                }
            }
            func publish<M: Model>(_ type: M.Type, _ label: String) throws {
                let record = M()
                try record.set("label", to: .string(label))
                try record.save(to: store)
                published.add(1, ordering: .releasing)
                Thread.sleep(forTimeInterval: 0.02)
            }
            try publish(CacheShelfA.self, "A")
            try publish(CacheShelfB.self, "B")
            try publish(CacheShelfC.self, "C")
            try publish(CacheShelfD.self, "D")
            try publish(CacheShelfE.self, "E")
            try publish(CacheShelfF.self, "F")
            done.store(true, ordering: .releasing)
            readers.wait()
            #expect(mismatches.withLock { $0 } == [])
            for (table, find) in finders.enumerated() { #expect(try find() == labels[table]) }
        }
    }

    /// A cached statement keeps its small bound values between runs (the next run rebinds
    /// every parameter and reuses their buffers) but lets go of a large one when reset.
    @Test func aResetStatementKeepsNoLargeBoundValue() throws {
        let connection = try SQLiteConnection(path: ":memory:", readOnly: false)
        try connection.execute("CREATE TABLE t (a TEXT, b BLOB)")
        let statement = try connection.cached("INSERT INTO t VALUES (?, ?)")
        func bound() -> String {
            guard let text = sqlite3_expanded_sql(statement.handle) else { return "" }
            defer { sqlite3_free(text) }
            return String(cString: text)
        }
        try statement.bind([.string("small"), .data(Data([1, 2]))])
        try statement.run()
        statement.reset()
        #expect(bound() == "INSERT INTO t VALUES ('small', x'0102')")
        let large = String(repeating: "x", count: SQLiteStatement.largeValue)
        try statement.bind([.string(large), .data(Data([3]))])
        try statement.run()
        statement.reset()
        #expect(bound() == "INSERT INTO t VALUES (NULL, NULL)")
        try statement.bind([.string("again"), .data(Data(repeating: 7, count: SQLiteStatement.largeValue))])
        try statement.run()
        statement.reset()
        #expect(bound() == "INSERT INTO t VALUES (NULL, NULL)")
        #expect(try connection.scalar("SELECT count(*) FROM t") == .int(3))
        #expect(try connection.scalar("SELECT length(a) FROM t WHERE rowid = 2") == .int(Int64(SQLiteStatement.largeValue)))
    }
}
