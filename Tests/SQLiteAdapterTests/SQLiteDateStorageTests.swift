import Foundation
import SQLiteAdapter
import TestSupport
import Testing

/// Date storage per column and per store: what is written, what reads back, and that SQL
/// comparisons, ordering, batch updates and aggregates use the column's storage.
@Suite struct SQLiteDateStorageTests {
    final class Event: Model {
        @Column var name: String = ""
        @Column var reference: Date?
        @Column(options: .dateStorage(.secondsSince1970)) var unix: Date?
        @Column(options: .dateStorage(.millisecondsSince1970)) var millis: Date?
        @Column(options: [.indexed, .dateStorage(.text)]) var text: Date?
        init() {}
    }

    static let instants = DateStorageSamples.instants

    private func seeded() throws -> SQLiteAdapter {
        let store = try SQLiteAdapter()
        for (k, date) in Self.instants.enumerated() {
            try Event.create(["name": "e\(k)", "reference": date, "unix": date, "millis": date, "text": date], in: store)
        }
        return store
    }

    @Test func eachColumnIsWrittenInItsStorage() throws {
        let store = try seeded()
        let row = try #require(try store.rows(#"SELECT typeof(reference), typeof(unix), typeof(millis), typeof(text), reference, unix, millis, text FROM events WHERE name = 'e0'"#).first)
        #expect(row.values[0...3] == ["real", "real", "integer", "text"])
        #expect(row.values[4] == .double(Self.instants[0].timeIntervalSinceReferenceDate))
        #expect(row.values[5] == .double(1_335_205_543.511))
        #expect(row.values[6] == .int(1_335_205_543_511))
        #expect(row.values[7] == "2012-04-23 18:25:43.511")
        let schema = try store.rows(#"SELECT type FROM pragma_table_info('events') WHERE name IN ('unix', 'millis', 'text') ORDER BY cid"#)
        #expect(schema.map { $0.values[0] } == ["REAL", "INTEGER", "TEXT"])
        // The sqlite3 tool's own date functions understand the text and Unix forms.
        #expect(try store.rows(#"SELECT datetime(text) = datetime(unix, 'unixepoch') FROM events WHERE name = 'e2'"#).first?.values == [.int(1)])
    }

    @Test func datesReadBackToTheStoragePrecision() throws {
        let store = try seeded()
        for (k, date) in Self.instants.enumerated() {
            let event = try #require(try Event.where(\.name == "e\(k)").using(store).first())
            #expect(event.reference == date, "reference seconds are exact")
            #expect(abs((event.unix ?? .distantPast).timeIntervalSince(date)) < 1e-5)
            #expect(abs((event.millis ?? .distantPast).timeIntervalSince(date)) <= 0.0005)
            #expect(abs((event.text ?? .distantPast).timeIntervalSince(date)) <= 0.0005)
        }
    }

    @Test(arguments: ["reference", "unix", "millis", "text"])
    func queriesCompareAndOrderInTheColumnsStorage(column: String) throws {
        let store = try seeded()
        let cutoff = Date(timeIntervalSince1970: 1_400_000_000)
        #expect(try Event.where(column).lt(cutoff).using(store).pluck(\.name) == ["e0", "e1"])
        #expect(try Event.where(column).gte(cutoff).using(store).count() == 2)
        #expect(try Event.where(column).between(Date(timeIntervalSince1970: 0), cutoff).using(store).pluck(\.name) == ["e0"])
        #expect(try Event.where(column).in([Self.instants[2]]).using(store).pluck(\.name) == ["e2"])
        #expect(try Event.query(in: store).order(by: column, .descending).pluck(\.name) == ["e3", "e2", "e0", "e1"])
        let earliest = try Event.query(in: store).min(column)
        guard case .date(let date) = earliest else {
            Issue.record("min(\(column)) is \(earliest), not a date")
            return
        }
        #expect(abs(date.timeIntervalSince(Self.instants[1])) <= 0.0005)
        let moved = Date(timeIntervalSince1970: 1_500_000_000)
        #expect(try Event.where(column).lt(cutoff).using(store).updateAll([column: moved]) == 2)
        #expect(try Event.where(column).eq(moved).using(store).count() == 2, "updateAll wrote the storage queries compare with")
    }

    /// Timestamps are stamped at the column's precision: the record held equals a reload,
    /// bit for bit, whatever the storage (and before the table exists).
    @Test(arguments: [DateStorage.secondsSinceReferenceDate, .secondsSince1970, .millisecondsSince1970, .text])
    func timestampsAreStampedAsTheColumnStoresThem(storage: DateStorage) throws {
        final class Stamped: Model {
            @Column var name: String = ""
            @Column var createdAt: Date?
            @Column var updatedAt: Date?
            init() {}
        }
        var configuration = SQLiteConfiguration()
        configuration.dateStorage = storage
        let store = try SQLiteAdapter(path: ":memory:", configuration: configuration)
        func bits(_ date: Date?) -> UInt64? { date?.timeIntervalSinceReferenceDate.bitPattern }
        let record = try Stamped.create(["name": "first"], in: store)
        for round in 0..<20 {
            let reloaded = try #require(try Stamped.find(record.id ?? 0, in: store))
            #expect(bits(reloaded.createdAt) == bits(record.createdAt), "\(storage), round \(round)")
            #expect(bits(reloaded.updatedAt) == bits(record.updatedAt), "\(storage), round \(round)")
            record.name = "round \(round)"
            try record.save()
        }
    }

    @Test func theStoreDefaultAppliesToColumnsWithoutTheirOwn() throws {
        final class Note: Model {
            @Column var at: Date?
            @Column(options: .dateStorage(.secondsSinceReferenceDate)) var exact: Date?
            init() {}
        }
        var configuration = SQLiteConfiguration()
        configuration.dateStorage = .millisecondsSince1970
        let store = try SQLiteAdapter(path: ":memory:", configuration: configuration)
        let date = Date(timeIntervalSince1970: 1_000.25)
        try Note.create(["at": date, "exact": date], in: store)
        #expect(try store.rows("SELECT at, exact FROM notes").first?.values == [.int(1_000_250), .double(date.timeIntervalSinceReferenceDate)])
        #expect(try Note.where(\.at == date).using(store).count() == 1)
    }

    /// A table written by another program: Unix seconds, SQLite's text, ISO 8601 text.
    @Test func aTableOtherToolsWroteReadsAsDates() throws {
        final class Visit: Model {
            static var tableName: String { "visits" }
            @Column(options: .dateStorage(.secondsSince1970)) var started: Date = Date(timeIntervalSince1970: 0)
            @Column(options: .dateStorage(.text)) var ended: Date?
            init() {}
        }
        let store = try SQLiteAdapter()
        try store.execute(#"CREATE TABLE visits (id INTEGER PRIMARY KEY, started REAL NOT NULL, ended TEXT)"#)
        try store.execute(#"INSERT INTO visits VALUES (1, 1335205543, '2012-04-23 19:00:00'), (2, strftime('%s', '2012-04-24'), '2012-04-24T10:30:00Z'), (3, 0, datetime(0, 'unixepoch'))"#)
        let visits = try Visit.query(in: store).all()
        #expect(visits.map(\.started) == [1_335_205_543, 1_335_225_600, 0].map { Date(timeIntervalSince1970: $0) })
        #expect(visits.map(\.ended) == [1_335_207_600, 1_335_263_400, 0].map { Date(timeIntervalSince1970: $0) })
        #expect(try Visit.where(\.ended > Date(timeIntervalSince1970: 1_335_210_000)).using(store).pluck(\.id) == [2])
    }
}
