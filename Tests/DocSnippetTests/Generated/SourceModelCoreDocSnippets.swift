// Generated from the `///` comments of Sources/ModelCore by Scripts/doc-snippets.py: do not edit;
// edit the comments and rerun. Compiled, not run.
// swift-format-ignore-file

@testable import ModelCore
import ArrayAdapter
import FileAdapter
import Foundation
import PostgresAdapter
import RESTAdapter
import SQLiteAdapter
import Testing

// Sources/ModelCore/Concurrency/CloseGate.swift, snippet 1
func ModelCoreCloseGate_send(through gate: CloseGate, _ work: () throws -> Void) throws {
    try gate.enter { StoreError.closed("REST store") }
    defer { gate.leave() }
    try work()
}

// Sources/ModelCore/Concurrency/Model+Async.swift, snippet 1
@MainActor final class ModelCoreModelAsync_TodoScreen {
    var title = ""

    func show(id: Int64) async throws {
        let todo = try await SourceDoc_Todo.find(id)      // the main actor is not blocked
        title = todo?.name ?? ""
    }
}

// Sources/ModelCore/History/HistoryKeepingAdapter.swift, snippet 1
func ModelCoreHistoryKeepingAdapter_deletedTodos(after cursor: HistoryCursor, in store: some HistoryKeepingAdapter) throws -> ([ModelValue], HistoryCursor) {
    let page = try SourceDoc_Todo.history(after: cursor, limit: 100, in: store)
    return (page.entries.filter { $0.action == .delete }.map(\.id), page.next)   // keep `next` with what you applied
}

// Sources/ModelCore/Model/JSONMapping.swift, snippet 1
final class ModelCoreJSONMapping_Team: Model {
    @Column var name = ""
    @Column var apiToken = ""
    @Column var foundedAt: Date?
    @HasMany var players: Children<SourceDoc_Player>
    init() {}

    static var jsonMapping: JSONMapping<ModelCoreJSONMapping_Team> {
        JSONMapping(keyCase: .lowerCamelCase, dates: .secondsSince1970)
            .key("TeamName", for: \.name)          // "TeamName" ↔ name
            .excluding(\.apiToken)                  // never written, never read
            .nesting("players")                     // children as a nested array
    }
}

// Sources/ModelCore/Model/JSONMapping.swift, snippet 2
final class ModelCoreJSONMapping_Invoice: Model {
    @Column var priority = 2
    @Column var cents: Int64 = 0
    init() {}

    static var jsonMapping: JSONMapping<ModelCoreJSONMapping_Invoice> {
        JSONMapping()
            // A priority stored as 1…3, sent as "low" / "normal" / "high":
            .transforming(\.priority, with: .lookup([1: "low", 2: "normal", 3: "high"]))
            // Cents stored, decimal amounts sent:
            .transforming(\.cents, with: JSONTransformer(
                encode: { .double(Double($0.intValue ?? 0) / 100) },
                decode: { .int(Int64((($0.doubleValue ?? 0) * 100).rounded())) }))
    }
}

// Sources/ModelCore/Model/Model+FieldTimestamps.swift, snippet 1
final class ModelCoreModelFieldTimestamps_Order: Model {
    @Column(options: .fieldTimestamps) var status = "new"   // + status_set_at, status_changed_at
    init() {}
}

// Sources/ModelCore/Model/Model.swift, snippet 1
final class ModelCoreModel_Todo: Model {
    @Column var name: String = ""
    @Column var dueDate: Date?
    init() {}

    func beforeSave() throws -> Bool {
        name = name.trimmingCharacters(in: .whitespaces)
        return !name.isEmpty          // false cancels the save
    }
}

// Sources/ModelCore/Model/Model.swift, snippet 2
extension ModelCoreModel_Todo {
    convenience init(name: String) { self.init(); self.name = name }
}

// Sources/ModelCore/Persistence/ModelStore.swift, snippet 1
@Test func ModelCoreModelStore_createsTasks() throws {
    try ModelStore.using(ArrayAdapter()) {                      // per scope (tests)
        try SourceDoc_Todo(["name": "walk"]).save()
    }
}

// Sources/ModelCore/Schema/Column.swift, snippet 1
final class ModelCoreColumn_Todo: Model {
    @Column var name: String = ""                        // "name", string
    @Column var longName: String?                        // "long_name", string?
    @Column(default: "2012-09-15") var dueDate: Date?    // cast at declaration
    @Column("notes_text") var notes: String = ""         // explicit name
    @Column(options: .indexed) var priority: Int = 0
    @Column var createdAt: Date?                         // automatic timestamps
    @Column var updatedAt: Date?
    init() {}
}

// Sources/ModelCore/Schema/ColumnOptions.swift, snippet 1
final class ModelCoreColumnOptions_Subscriber: Model {
    @Column(options: [.unique, .indexed]) var email: String = ""
    init() {}
}

// Sources/ModelCore/Schema/DateStorage.swift, snippet 1
final class ModelCoreDateStorage_Visit: Model {
    @Column("created_at", options: .dateStorage(.secondsSince1970)) var created: Date?
    init() {}
}

// Sources/ModelCore/Schema/ModelID.swift, snippet 1
final class ModelCoreModelID_Device: Model {
    typealias IDValue = UUID
    @Column var name: String = ""
    init() {}
}

extension SourceModelCoreDoc {
    /// Sources/ModelCore/Casting/Caster.swift, snippet 1.
    static func Caster1(_ given: Context) throws {
        try show(Caster.cast("12", to: CastTarget(.int)))        // .int(12)
        try show(Caster.cast("yes", to: CastTarget(.bool)))      // .bool(true)
        try show(Caster.cast("3.7", to: CastTarget(.int)))       // throws: not an integer
    }

    /// Sources/ModelCore/Concurrency/AsyncTransaction.swift, snippet 1.
    static func AsyncTransaction1(_ given: Context) async throws {
        let store = given.store
        let fromID = given.fromID
        let toID = given.toID
        let amount = given.amount
        let moved = try await store.transaction { _ in
            guard let from = try await SourceDoc_Account.find(fromID), let to = try await SourceDoc_Account.find(toID) else { return false }
            from.balance -= amount
            to.balance += amount
            try await from.save()
            try await to.save()            // if this throws, neither is saved
            return true
        }
        show(moved)
    }

    /// Sources/ModelCore/Concurrency/CloseGate.swift, snippet 1.
    static func CloseGate1(_ given: Context) throws {
        _ = given
    }

    /// Sources/ModelCore/Concurrency/Model+Async.swift, snippet 1.
    static func ModelAsync1(_ given: Context) throws {
        _ = given
    }

    /// Sources/ModelCore/Errors/SwiftModelError.swift, snippet 1.
    static func SwiftModelError1(_ given: Context) throws {
        let user = given.user
        do {
            try user.save()
        } catch let error as any SwiftModelError {
            print("\(error.modelName ?? "?").\(error.columnName ?? "?"): \(error)")
            if error.storeErrorKind == .uniqueViolation { SourceDoc_showTaken() }
        }
    }

    /// Sources/ModelCore/History/HistoryKeepingAdapter.swift, snippet 1.
    static func HistoryKeepingAdapter1(_ given: Context) throws {
        _ = given
    }

    /// Sources/ModelCore/Inflector/Inflector.swift, snippet 1.
    static func Inflector1(_ given: Context) throws {
        let inflector = Inflector.shared
        show(inflector.pluralize("person"))       // "people"
        show(inflector.singularize("statuses"))   // "status"
        show(inflector.tableize("TaskList"))      // "task_lists"  (Todo.tableName's default)
        show(inflector.camelize("due_date"))      // "DueDate"
        show(inflector.humanize("author_id"))     // "Author"

        // Rules added at run time take precedence over the defaults:
        show(inflector.irregular("octopus", "octopodes"))
        show(inflector.uncountable("luggage"))
        try show(inflector.plural("(cact)us$", "$1i"))
        show(inflector.reset())                   // back to the English defaults
        show(inflector)
    }

    /// Sources/ModelCore/Logging/LogHandler.swift, snippet 2.
    static func LogHandler2(_ given: Context) throws {
        let capture = CapturingLogHandler()
        ModelLog.handler = capture
        show(ModelLog.setLevel(.debug, for: "sqlite"))
        try show(SourceDoc_Todo.create(["name": "walk"]))
        show(capture.records.map(\.message))      // the SQL statements run
        show(capture)
    }

    /// Sources/ModelCore/Logging/ModelLog.swift, snippet 1.
    static func ModelLog1(_ given: Context) throws {
        show(ModelLog.setLevel(.debug, for: "sqlite"))   // every SQL statement
        show(ModelLog.setLevel(.info, for: "file"))     // FileAdapter loads and saves
        ModelLog.handler = SourceDoc_MyBridge()              // to swift-log, OSLog, a file…

        show(ModelLog.silence())                         // nothing at all…
        show(ModelLog.resume())                          // …until resumed (calls nest)
        try show(ModelLog.silenced { try SourceDoc_importEverything() })
    }

    /// Sources/ModelCore/Logging/ModelLog.swift, snippet 2.
    static func ModelLog2(_ given: Context) throws {
        let count = given.count
        let log = ModelLogger(subsystem: "sync")
        show(log.info("imported \(count) records"))
        if log.isEnabled(.debug) { log.debug("payload: \(SourceDoc_expensiveDump())") }
        show(log)
    }

    /// Sources/ModelCore/Model/JSONMapping.swift, snippet 1.
    static func JSONMapping1(_ given: Context) throws {
        let team = given.team

        try show(team.dictionaryValue())   // ["id": 1, "TeamName": "Rovers", "foundedAt": 1.3e9, "players": [...]]
    }

    /// Sources/ModelCore/Model/JSONMapping.swift, snippet 2.
    static func JSONMapping2(_ given: Context) throws {
        _ = given
    }

    /// Sources/ModelCore/Model/Model+ByID.swift, snippet 1.
    static func ModelByID1(_ given: Context) throws {
        let city = given.city
        try show(SourceDoc_Person.delete(id: 5))                                  // one DELETE, no hooks
        try show(SourceDoc_Person.update(id: 5, set: ["score": 10, "city": city])) // one UPDATE, no hooks
        try show(SourceDoc_Person.destroy(id: 5))                                 // loads, hooks and rules run
        try show(SourceDoc_Person.update(id: 5) { $0.score += 1 })                // loads, validates, hooks run
    }

    /// Sources/ModelCore/Model/Model+Dynamic.swift, snippet 1.
    static func ModelDynamic1(_ given: Context) throws {
        let todo = try SourceDoc_Todo(["name": "walk", "due_date": "2012-09-15"])
        show(todo)
    }

    /// Sources/ModelCore/Model/Model+Dynamic.swift, snippet 2.
    static func ModelDynamic2(_ given: Context) throws {
        let todo = given.todo
        let due = try todo["due_date"]     // .date(…)
        show(due)
    }

    /// Sources/ModelCore/Model/Model+Dynamic.swift, snippet 3.
    static func ModelDynamic3(_ given: Context) throws {
        let todo = given.todo
        try show(todo.set("due_date", to: "2012-09-19"))
        try show(todo.set("priority", to: "3"))        // .int(3)
    }

    /// Sources/ModelCore/Model/Model+FieldTimestamps.swift, snippet 1.
    static func ModelFieldTimestamps1(_ given: Context) throws {
        let order = given.order

        order.status = "shipped"
        try show(order.save())
        try show(order.lastChanged(\.status))    // when status last became a different value
        try show(order.lastSet(\.status))        // when status was last assigned (even the same value)
    }

    /// Sources/ModelCore/Model/Model+Finders.swift, snippet 1.
    static func ModelFinders1(_ given: Context) throws {
        let todo = try SourceDoc_Todo.create(["name": "walk", "due_date": "2012-09-15"])
        show(todo)
    }

    /// Sources/ModelCore/Model/Model+Observation.swift, snippet 1.
    static func ModelObservation1(_ given: Context) throws {
        let todo = given.todo
        let observation = try todo.observe(\.name) { old, new in print("\(old) → \(new)") }
        todo.name = "walk"        // prints " → walk"
        show(observation.cancel())
        show(observation)
    }

    /// Sources/ModelCore/Model/Model+Observation.swift, snippet 2.
    static func ModelObservation2(_ given: Context) throws {
        let todo = given.todo
        let label = given.label
        let a = given.a
        let b = given.b
        try show(label.bind(\.title, to: todo, \.name))               // todo.name → label.title
        try show(a.bind(\.name, to: b, \.name, twoWay: true))
    }

    /// Sources/ModelCore/Model/Model+Save.swift, snippet 1.
    static func ModelSave1(_ given: Context) throws {
        let chore = SourceDoc_Chore()
        chore.name = "walk the dog"
        try show(chore.save())            // chore.id is now set; an invalid chore throws
        show(chore)
    }

    /// Sources/ModelCore/Model/Model+Save.swift, snippet 2.
    static func ModelSave2(_ given: Context) throws {
        let user = given.user
        if try !user.saveIfValid() { show(user.errors.fullMessages) }
    }

    /// Sources/ModelCore/Model/Model+SwiftValues.swift, snippet 1.
    static func ModelSwiftValues1(_ given: Context) throws {
        let store = given.store
        let title = "walk the dog", due = Date.now
        let chore = try SourceDoc_Chore(["name": title, "due_date": due, "priority": 3])
        try show(chore.set(["name": title.uppercased()]))
        try show(SourceDoc_Chore.create(["name": title], in: store))
        show(title, chore)
    }

    /// Sources/ModelCore/Model/Model+Transaction.swift, snippet 1.
    static func ModelTransaction1(_ given: Context) throws {
        let todo = given.todo
        let approved = given.approved
        try show(todo.transaction {
            todo.name = "draft"
            if !approved { try todo.rollback() }   // name is back to what it was
        })
    }

    /// Sources/ModelCore/Model/Model.swift, snippet 1.
    static func Model1(_ given: Context) throws {
        _ = given
    }

    /// Sources/ModelCore/Model/Model.swift, snippet 2.
    static func Model2(_ given: Context) throws {
        _ = given
    }

    /// Sources/ModelCore/Notifications/ModelNotifications.swift, snippet 1.
    static func ModelNotifications1(_ given: Context) async throws {
        for await change in ModelNotifications.changes(of: SourceDoc_Todo.self) {
            print(change.action, change.id)
        }

        try show(ModelNotifications.withoutNotifications {     // nestable; restored on throw
            try SourceDoc_importFixtures()
        })
    }

    /// Sources/ModelCore/Persistence/ModelClock.swift, snippet 1.
    static func ModelClock1(_ given: Context) throws {
        let todo = given.todo
        let fixed = Date(timeIntervalSince1970: 1_700_000_000)
        try show(ModelClock.using({ fixed }) { try todo.save() })   // todo.createdAt == fixed
        show(fixed)
    }

    /// Sources/ModelCore/Persistence/ModelStore.swift, snippet 1.
    static func ModelStore1(_ given: Context) throws {
        show(ModelStore.setDefault(try SQLiteAdapter(path: "app.sqlite")))   // once, at launch
        show(ModelStore.setAdapter(ArrayAdapter(), for: SourceDoc_Draft.self))         // per model type

    }

    /// Sources/ModelCore/Persistence/StoreError.swift, snippet 1.
    static func StoreError1(_ given: Context) throws {
        let user = given.user
        do {
            try user.save()
        } catch let error as StoreError where error.kind == .uniqueViolation {
            print("taken:", error.column ?? "a unique column")   // "email"
        }
    }

    /// Sources/ModelCore/Persistence/TransactionContext.swift, snippet 1.
    static func TransactionContext1(_ given: Context) throws {
        let store = given.store
        let from = given.from
        let to = given.to
        try show(store.transaction {
            try from.save()
            try to.save()        // if this throws, `from` is not saved either
        })
    }

    /// Sources/ModelCore/Persistence/TransactionContext.swift, snippet 2.
    static func TransactionContext2(_ given: Context) throws {
        let store = given.store
        let todo = given.todo
        let order = given.order
        try show(store.transaction { tx in
            try order.save()
            try? tx.savepoint { try todo.save() }   // may fail alone
        })
    }

    /// Sources/ModelCore/Persistence/TransactionHandle.swift, snippet 1.
    static func TransactionHandle1(_ given: Context) throws {
        let store = given.store
        let from = given.from
        let to = given.to
        try show(store.transaction { tx in
            try from.save()
            try tx.savepoint { try to.save() }   // a nested level: throwing undoes only it
        })
    }

    /// Sources/ModelCore/Query/QueryPredicate.swift, snippet 1.
    static func QueryPredicate1(_ given: Context) throws {
        let startsWith100Percent: QueryPredicate =
            .text(column: 1, .like, TextOperator.escapeLike("100%") + "%", caseInsensitive: false)
        show(startsWith100Percent)
    }

    /// Sources/ModelCore/Schema/Column.swift, snippet 1.
    static func Column1(_ given: Context) throws {
        _ = given
    }

    /// Sources/ModelCore/Schema/ColumnOptions.swift, snippet 1.
    static func ColumnOptions1(_ given: Context) throws {
        _ = given
    }

    /// Sources/ModelCore/Schema/DateStorage.swift, snippet 1.
    static func DateStorage1(_ given: Context) throws {
        _ = given
    }

    /// Sources/ModelCore/Schema/ModelID.swift, snippet 1.
    static func ModelID1(_ given: Context) throws {
        _ = given
    }

    /// Sources/ModelCore/Schema/ModelSchema.swift, snippet 1.
    static func ModelSchema1(_ given: Context) throws {
        let schema = SourceDoc_Todo.schema
        show(schema.columns.map(\.name))          // ["id", "name", "long_name", "due_date", …]
        show(schema.column(named: "due_date")?.type)   // .date
        show(schema)
    }

    /// Sources/ModelCore/Schema/Relation.swift, snippet 1.
    static func Relation1(_ given: Context) throws {
        let relation = try SourceDoc_Todo.schema.relation(named: "assignees")
        show(relation?.kind)          // .hasMany
        show(relation?.target.modelName)   // "Assignee"
        show(relation)
    }

    /// Sources/ModelCore/Values/ColumnValue.swift, snippet 1.
    static func ColumnValue1(_ given: Context) throws {
        let todo = given.todo
        try show(todo.set("tags", to: ModelValue(Set(["a", "b"]))))
        try show(todo.set("steps", to: ModelValue(1...10)))
    }

    /// Sources/ModelCore/Values/ModelValue+Accessors.swift, snippet 1.
    static func ModelValueAccessors1(_ given: Context) throws {
        let hours: ModelValue = 3
        show(hours.intValue)          // 3
        show(hours.stringValue)       // nil
        show(hours)
    }

    /// Sources/ModelCore/Values/ModelValue.swift, snippet 1.
    static func ModelValue1(_ given: Context) throws {
        let todo = given.todo
        try show(todo.set("due_date", to: "2012-09-19"))        // .string, cast to a date
        try show(SourceDoc_Todo(["name": "walk", "priority": 3, "done": false]))
    }
}
