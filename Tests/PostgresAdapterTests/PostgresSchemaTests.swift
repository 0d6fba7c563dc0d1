import Foundation
import PostgresAdapter
import Testing

/// Tables, types, constraints, migrations and raw SQL on a real server.
@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipReason))
struct PostgresSchemaTests {
    func types(_ store: PostgresAdapter, _ table: String) throws -> [String: String] {
        var out: [String: String] = [:]
        for row in try store.rows(
            "SELECT column_name::text, data_type::text, is_nullable::text, coalesce(collation_name::text, '') FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1",
            [.string(table)])
        {
            if case .string(let name) = row[0], case .string(let type) = row[1], case .string(let nullable) = row[2],
                case .string(let collation) = row[3]
            {
                out[name] = type + (nullable == "NO" ? " not null" : "") + (collation.isEmpty ? "" : " collate \(collation)")
            }
        }
        return out
    }

    @Test func tablesHaveRealTypesConstraintsAndIndexes() throws {
        let store = try PostgresTestServer.store()
        try store.prepare(PgGadget.schema)
        let columns = try types(store, PgGadget.schema.tableName)
        #expect(columns["id"] == "bigint not null")
        #expect(columns["name"] == "text not null collate C")
        #expect(columns["count"] == "bigint not null")
        #expect(columns["ratio"] == "double precision not null")
        #expect(columns["enabled"] == "boolean not null")
        #expect(columns["made"] == "timestamp with time zone not null")
        #expect(columns["serial"] == "uuid not null")
        #expect(columns["payload"] == "bytea not null")
        #expect(columns["tags"] == "jsonb not null")
        #expect(columns["note"] == "text collate C")
        let level = try store.rows(
            "SELECT column_default FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 AND column_name = 'level'",
            [.string(PgGadget.schema.tableName)])
        #expect(level.first?[0] == .string("(7)::bigint"), "\(level)")
        let indexes = try store.rows("SELECT indexname::text FROM pg_indexes WHERE schemaname = current_schema()").map { $0[0] }
        #expect(indexes.contains(.string("\(PgGadget.schema.tableName)_code_unique")))
        let gadget = PgGadget()
        gadget.name = "n"
        gadget.code = "c"
        try ModelStore.using(store) { try gadget.save() }
        #expect(gadget.id == 1)
        let twin = PgGadget()
        twin.code = "c"
        let thrown = #expect(throws: StoreError.self) { try ModelStore.using(store) { try twin.save() } }
        #expect(thrown?.kind == .uniqueViolation && thrown?.column == "code" && thrown?.table == PgGadget.schema.tableName)
        let error = thrown?.underlying as? PostgresError
        #expect(error?.kind == .uniqueViolation)
        let shared = error.map { $0 as any SwiftModelError }
        #expect(shared?.storeErrorKind == .uniqueViolation && shared?.isConstraintFailure == true)
        #expect(shared?.tableName == PgGadget.schema.tableName)
        #expect(error?.sqlState == "23505")
        #expect(error?.constraint == "\(PgGadget.schema.tableName)_code_unique")
        #expect(error?.table == PgGadget.schema.tableName)
        #expect(error?.sql?.hasPrefix("INSERT INTO") == true)
        #expect(error.map { "\($0)" }?.contains("c") == true)
    }

    @Test func errorDescriptionsNeverPrintValues() throws {
        let store = try PostgresTestServer.store()
        let secret = "secret@x.org"
        try PgGadget.create(["name": "n", "code": .string(secret)], in: store)
        let thrown = #expect(throws: StoreError.self) { try PgGadget.create(["name": "m", "code": .string(secret)], in: store) }
        #expect(thrown.map { "\($0)" }?.contains(secret) == false)
        let error = thrown?.underlying as? PostgresError
        #expect(error?.detail?.contains(secret) == true, "the server's detail stays on the error")
        #expect(error.map { "\($0)" }?.contains(secret) == false)
        #expect(error.map { String(reflecting: $0) }?.contains(secret) == false)
        #expect(error?.expandedDescription.contains(secret) == true)
    }

    @Test func foreignKeysCarryTheRelationRulesAndRestrictIsTyped() throws {
        let store = try PostgresTestServer.store()
        try ModelStore.using(store) {
            let shelf = try PgShelf.create(["label": "a"])
            try PgBook.create(["title": "x", "shelf_id": .int(shelf.id ?? 0)])
            let rule = try store.rows(
                "SELECT confdeltype::text FROM pg_constraint WHERE contype = 'f' AND conrelid = $1::regclass",
                [.string("\"\(PgBook.schema.tableName)\"")])
            #expect(rule.first?[0] == .string("c"))  // CASCADE: books go with their shelf
            #expect(try store.execute("DELETE FROM \"\(PgShelf.schema.tableName)\"") == 1)
            #expect(try PgBook.count() == 0)
            let error = #expect(throws: PostgresError.self) {
                try store.execute("INSERT INTO \"\(PgBook.schema.tableName)\" (title, shelf_id) VALUES ($1, $2)", ["y", 999])
            }
            #expect(error?.kind == .foreignKeyViolation)
        }
    }

    @Test func valuesRoundTripThroughBinaryAndRawSQL() throws {
        let store = try PostgresTestServer.store()
        try ModelStore.using(store) {
            let gadget = PgGadget()
            gadget.name = "héllo 🐶 'quoted'"
            gadget.count = Int(Int64.min + 1)
            gadget.ratio = -2.5e-300
            gadget.enabled = true
            gadget.made = Date(timeIntervalSince1970: 1_700_000_000.123456)
            gadget.payload = Data([0, 1, 2, 255])
            gadget.tags = ["a", "b"]
            try gadget.save()
            let read = try #require(try PgGadget.find(gadget.id ?? 0))
            #expect(read.name == gadget.name)
            #expect(read.count == gadget.count)
            #expect(read.ratio == -2.5e-300)
            #expect(read.enabled)
            #expect(abs(read.made.timeIntervalSince(gadget.made)) < 1e-6)
            #expect(read.serial == gadget.serial)
            #expect(read.payload == gadget.payload)
            #expect(read.tags == ["a", "b"])
            #expect(read.level == 7)
        }
        let rows = try store.rows("SELECT $1::int4 AS a, $2::numeric AS b, 12.5::numeric AS c, now() AS d, 'x'::varchar AS e", [41, 3])
        #expect(rows.first?["a"] == .int(41))
        #expect(rows.first?["b"] == .int(3))
        #expect(rows.first?["c"] == .double(12.5))
        if case .date? = rows.first?["d"] {} else { Issue.record("timestamptz reads as a date") }
        #expect(rows.first?["e"] == .string("x"))
        let late = try PgGadget.fetch(sql: "SELECT * FROM \"\(PgGadget.schema.tableName)\" WHERE count < $1", [0], in: store)
        #expect(late.count == 1)
        let partial = #expect(throws: PostgresError.self) {
            try PgGadget.fetch(sql: "SELECT id FROM \"\(PgGadget.schema.tableName)\"", in: store)
        }
        #expect(partial?.kind == .mismatch && partial?.message.contains("lacks PgGadget column(s)") == true)
        let nul = #expect(throws: PostgresError.self) { try store.execute("SELECT $1::text", [.string("a\u{0}b")]) }
        #expect(nul?.kind == .invalidValue)
        let bad = #expect(throws: PostgresError.self) { try store.rows("SELEC 1") }
        #expect(bad?.kind == .invalidSQL)
        #expect(bad?.sql == "SELEC 1")
    }

    @Test func anOlderTableGainsNewColumnsAndMigrationsRunOnce() throws {
        let configuration = PostgresTestServer.configuration()
        do {
            let store = try PostgresAdapter(configuration)
            try PgMemoV1.create(["title": "old"], in: store)
            try? store.close()
        }
        let store = try PostgresAdapter(configuration)
        let memo = try #require(try PgMemoV2.find(1, in: store))
        #expect(memo.title == "old")
        #expect(memo.body == "(empty)")
        #expect(memo.priority == 3)
        #expect(memo.tag == nil)
        var migrator = PostgresMigrator()
        migrator.register("index title") { db in try db.execute(#"CREATE INDEX "memo_title" ON "memo" ("title")"#) }
        migrator.register("uppercase") { db in try db.execute("UPDATE memo SET title = upper(title)") }
        var failing = migrator
        failing.register("broken") { db in
            try db.execute("UPDATE memo SET body = 'half-done'")
            try db.execute("UPDATE no_such_table SET x = 1")
        }
        #expect(throws: PostgresError.self) { try failing.migrate(store) }
        #expect(try failing.appliedMigrations(in: store) == ["index title", "uppercase"])
        #expect(try PgMemoV2.find(1, in: store)?.body == "(empty)")
        #expect(try migrator.migrate(store) == [])
        #expect(try PgMemoV2.find(1, in: store)?.title == "OLD")
    }

    @Test func aRowAnotherToolWroteReadsOrFailsWithContext() throws {
        let store = try PostgresTestServer.store()
        try store.execute(#"CREATE TABLE "memo" ("id" integer PRIMARY KEY, "title" varchar(20) NOT NULL, "body" text, "priority" numeric, "tag" text)"#)
        try store.execute(#"INSERT INTO "memo" VALUES (1, 'from psql', 'b', 2, NULL), (2, 'bad', NULL, 2.5, NULL)"#)
        let memo = try #require(try PgMemoV2.find(1, in: store))
        #expect(memo.title == "from psql")
        #expect(memo.priority == 2)
        let error = #expect(throws: InvalidStoredValue.self) { _ = try PgMemoV2.find(2, in: store) }
        #expect(error?.column == "body" || error?.column == "priority")
    }

    @Test func numericValuesBeyondDoublesRangeAreInvalidStoredValues() throws {
        let store = try PostgresTestServer.store()
        try store.execute(#"CREATE TABLE "numbers" ("id" integer PRIMARY KEY, "ratio" numeric NOT NULL, "count" numeric NOT NULL)"#)
        try store.execute(
            #"INSERT INTO "numbers" VALUES (1, 0.1, 12), (2, 1e400, 1), (3, -1e400, 1), (4, 1e-400, 1), (5, 1, 1e-400), (6, 123456.789012345678, 0)"#)
        #expect(try PgNumbers.find(1, in: store)?.ratio == 0.1)  // correctly rounded, not a sum of powers
        #expect(try PgNumbers.find(6, in: store)?.ratio == 123456.789012345678)
        for (id, column) in [(2, "ratio"), (3, "ratio"), (4, "ratio"), (5, "count")] as [(Int64, String)] {
            let error = #expect(throws: InvalidStoredValue.self, "row \(id)") { _ = try PgNumbers.find(id, in: store) }
            #expect(error?.column == column && error?.table == "numbers", "row \(id)")
        }
    }
}
