// Generated from Docs/PostgreSQL.md by Scripts/doc-snippets.py: do not edit; edit the document and rerun.
// swift-format-ignore-file

import ArrayAdapter
import FileAdapter
import Foundation
import PostgresAdapter
import SQLiteAdapter
import Testing

// Docs/PostgreSQL.md, snippet 1 (line 9)
final class PostgreSQLDoc_Todo: Model {
    @Column var name: String = ""
    @Column var done: Bool = false
    @Column var due: Date?
    init() {}
}

// Docs/PostgreSQL.md, snippet 1 (line 9)
func PostgreSQLDoc_openStore() throws -> PostgresAdapter {
    var configuration = PostgresConfiguration("postgresql://app@localhost/app")
    configuration.maximumConnections = 16
    let store = try PostgresAdapter(configuration)
    ModelStore.setDefault(store)
    try PostgreSQLDoc_Todo.create(["name": "walk the dog"])
    _ = try PostgreSQLDoc_Todo.where(\.done == false).order(by: \.due).all()
    return store
}

// Docs/PostgreSQL.md, snippet 3 (line 109)
func PostgreSQLDoc_migrate(_ store: PostgresAdapter) throws {
    var migrator = PostgresMigrator()
    migrator.register("todo: index name and due") { db in
        try db.execute(#"CREATE INDEX IF NOT EXISTS "todo_name_due" ON "todo" ("name", "due")"#)
    }
    try migrator.migrate(store)
}

// Docs/PostgreSQL.md, snippet 4 (line 124)
func PostgreSQLDoc_report(_ store: PostgresAdapter) throws {
    try store.execute("UPDATE todo SET done = TRUE WHERE due < $1", [.date(Date())])
    for row in try store.rows("SELECT done, count(*) AS n FROM todo GROUP BY done") {
        print(row["done"] ?? .null, row["n"] ?? .null)
    }
    let late = try PostgreSQLDoc_Todo.fetch(sql: "SELECT * FROM todo WHERE due < $1 ORDER BY due", [.date(Date())], in: store)
    print(late.count)
}

// Docs/PostgreSQL.md, snippet 5 (line 266)
func PostgreSQLDoc_importTodos(_ names: [String], into store: PostgresAdapter) throws {
    try store.transaction {
        for name in names {
            do {
                try store.transaction { _ = try PostgreSQLDoc_Todo.create(["name": .string(name)], in: store) }
            } catch let error as StoreError where error.kind == .uniqueViolation {
                print("skipped \(name): already imported")   // only that level rolled back
            }
        }
        try store.flush()   // anything still unanswered is checked here (and at COMMIT)
    }
}

// Docs/PostgreSQL.md, snippet 6 (line 290)
func PostgreSQLDoc_pooledStore() throws -> PostgresAdapter {
    var settings = PostgresConfiguration("host=pgbouncer.internal port=6432 dbname=app user=app")
    settings.transactionPooling = true
    settings.schema = "tenant_42"                     // applied per transaction, never leaked
    settings.statementTimeout = .seconds(5)
    settings.listenConnection = "host=db.internal dbname=app user=app"   // LISTEN: the server itself
    return try PostgresAdapter(settings)
}

// Docs/PostgreSQL.md, snippet 7 (line 415)
func PostgreSQLDoc_highlyAvailableStore() throws -> PostgresAdapter {
    let nodes = "host=db-a.internal,db-b.internal port=5432,5432 dbname=app user=app connect_timeout=2"
    var settings = PostgresConfiguration(nodes + " target_session_attrs=read-write")
    settings.replicas = [nodes + " target_session_attrs=prefer-standby"]
    settings.acquireTimeout = .seconds(2)
    return try PostgresAdapter(settings)
}

/// The context of Docs/PostgreSQL.md's snippets: a fresh in-memory default store.
enum PostgreSQLDoc {
    struct Context {}

    static func withContext(_ body: (Context) throws -> Void) throws {
        try ModelStore.using(ArrayAdapter()) { try body(Context()) }
    }
}

extension PostgreSQLDoc {
    /// Docs/PostgreSQL.md, snippet 1 (line 9).
    static func snippet1(_ context: Context) throws {
        _ = context


    }

    /// Docs/PostgreSQL.md, snippet 2 (line 34).
    static func snippet2(_ context: Context) throws {

        var settings = PostgresConfiguration(host: "db.internal", database: "app", user: "app")
        settings.schema = "tenant_42"                      // search_path, created when missing
        settings.statementTimeout = .seconds(5)             // server-side, per statement
        settings.replicas = ["host=replica-1.internal dbname=app user=app"]
        settings.isolation = .serializable                  // BEGIN ISOLATION LEVEL SERIALIZABLE
        show(settings)
    }

    /// Docs/PostgreSQL.md, snippet 3 (line 109).
    static func snippet3(_ context: Context) throws {
        _ = context

    }

    /// Docs/PostgreSQL.md, snippet 4 (line 124).
    static func snippet4(_ context: Context) throws {
        _ = context

    }

    /// Docs/PostgreSQL.md, snippet 5 (line 266).
    static func snippet5(_ context: Context) throws {
        _ = context

    }

    /// Docs/PostgreSQL.md, snippet 6 (line 290).
    static func snippet6(_ context: Context) throws {
        _ = context

    }

    /// Docs/PostgreSQL.md, snippet 7 (line 415).
    static func snippet7(_ context: Context) throws {
        _ = context

    }
}

@Suite("Docs/PostgreSQL.md snippets") struct PostgreSQLDocSnippetTests {
    // snippet 1 is compiled only (marked compile-only in the document)
    @Test func snippet2() throws { try privately { try PostgreSQLDoc.withContext { try PostgreSQLDoc.snippet2($0) } } }
    // snippet 3 is compiled only (marked compile-only in the document)
    // snippet 4 is compiled only (marked compile-only in the document)
    @Test func snippet5() throws { try privately { try PostgreSQLDoc.withContext { try PostgreSQLDoc.snippet5($0) } } }
    @Test func snippet6() throws { try privately { try PostgreSQLDoc.withContext { try PostgreSQLDoc.snippet6($0) } } }
    @Test func snippet7() throws { try privately { try PostgreSQLDoc.withContext { try PostgreSQLDoc.snippet7($0) } } }
}
