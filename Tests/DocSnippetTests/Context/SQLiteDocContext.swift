import Foundation
import SQLiteAdapter

final class SQLiteDoc_Project: Model {
    static var tableName: String { "projects" }
    @Column var name = ""
    @HasMany var todos: Children<SQLiteDoc_Todo>
    init() {}
}

/// Named as Docs/SQLite.md's SQL names the tables.
final class SQLiteDoc_Todo: Model {
    static var tableName: String { "todos" }
    @Column var name = ""
    @Column var done = false
    @Column var priority: Int?
    @Column var due: Date?
    @BelongsTo var project: SQLiteDoc_Project?
    init() {}
}

final class SQLiteDoc_Person: Model {
    static var tableName: String { "people" }
    @Column var name = ""
    @Column var city: String?
    init() {}
}

final class SQLiteDoc_Chore: Model {
    @Column var name = ""
    @Column var done = false
    init() {}
}

enum SQLiteDoc {
    struct Context {
        let store: SQLiteAdapter
    }

    static func withContext(_ body: (Context) throws -> Void) throws {
        let store = try SQLiteAdapter()
        try ModelStore.using(store) {
            try store.prepare(SQLiteDoc_Todo.schema)
            try store.prepare(SQLiteDoc_Person.schema)
            try SQLiteDoc_Person.create(["name": "Ann", "city": "Paris"])
            try SQLiteDoc_Chore.create(["name": "dishes"])
            try body(Context(store: store))
        }
    }
}
