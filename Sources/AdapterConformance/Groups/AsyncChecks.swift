import Foundation
import ModelCore
import ModelQuery

/// The async API and query observation: the same answers as the synchronous API, on
/// every adapter. These groups run only through the async `AdapterConformance.run(_:)`.
enum AsyncChecks {
    private struct Refused: Error {}

    /// Synchronous reads to compare with (a sync function: async code picks async forms).
    private static func syncNames(_ query: Query<ConformancePerson>) throws -> [String] { try query.pluck(\.name) }

    static func asyncAPI(_ c: ConformanceChecker) async throws {
        try ConformancePerson.seed()
        let byName = ConformancePerson.query().order(by: \.name)
        c.equal(try await byName.all().map(\.name), try syncNames(byName), "async all() matches the synchronous one")
        c.equal(try await ConformancePerson.find(2)?.name, "Bob", "async find")
        c.expect(try await ConformancePerson.find(999) == nil, "async find of a missing id is nil")
        c.equal(try await ConformancePerson.count(), 11, "async count")
        c.equal(try await ConformancePerson.where(\.city == "Paris").count(), 3, "async filtered count")
        c.equal(try await ConformancePerson.query().max("age"), .int(77), "async max")
        c.equal(try await byName.first()?.name, "'; DROP TABLE conformance_person; --", "async first")
        c.equal(try await byName.page(2, per: 4).items.count, 4, "async page")

        let hooked = ConformanceHooked()
        hooked.name = "async"
        try await hooked.save()
        c.expect(hooked.id != nil && !hooked.isDirty, "async save of a new record gives it an id and a clean state")
        c.equal(hooked.log, ["beforeSave", "beforeCreate", "afterCreate", "afterSave"], "async save hooks")
        hooked.name = "renamed"
        try await hooked.save()
        c.equal(try await ConformanceHooked.find(hooked.id ?? 0)?.name, "renamed", "async update")
        hooked.decline = ["beforeUpdate"]
        hooked.name = "declined"
        await c.expectThrows(ModelError.self, "a declining hook in an async save") { try await hooked.save() }
        c.expect(hooked.isDirty, "a declined async save leaves the record dirty")
        c.equal(try await ConformanceHooked.find(hooked.id ?? 0)?.name, "renamed", "a declined async save wrote nothing")
        hooked.decline = []
        c.expect(try await hooked.destroy(), "async destroy")
        c.equal(try await ConformanceHooked.count(), 0, "async destroy removed the row")

        c.equal(try await ConformancePerson.where(\.active == false).updateAll(["score": 0]), 3, "async updateAll")
        c.equal(try await ConformancePerson.where(\.score == 0).count(), 4, "async updateAll wrote")
        c.equal(try await ConformancePerson.where(\.score == 0).deleteAll(), 4, "async deleteAll")

        let store = c.store
        let made = try await store.transaction { _ in
            try await ConformanceHooked.create(["name": "t1"], in: store)
            try await ConformanceHooked.create(["name": "t2"], in: store)
            return try await ConformanceHooked.count(in: store)
        }
        c.equal(made, 2, "an async transaction sees its own writes")
        if c.hasTransactions("a throwing async transaction rolls back") {
            await c.expectThrows(Refused.self, "a throwing async transaction") {
                try await store.transaction { _ in
                    try await ConformanceHooked.create(["name": "t3"], in: store)
                    throw Refused()
                }
            }
            c.equal(try await ConformanceHooked.count(), 2, "a throwing async transaction rolled back")
        }

        try await joiningChecks(c)
        try await externalCommitChecks(c)
        try await stagedRelationChecks(c)

        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            let late = ConformanceHooked()
            late.name = "cancelled"
            do {
                try await late.save(to: store)
                return false
            } catch is CancellationError {
                return late.isNew
            }
        }
        c.expect(try await cancelled.value, "a cancelled task's async save throws CancellationError and saves nothing")
        c.equal(try await ConformanceHooked.count(), 2, "nothing saved by the cancelled task")

        let blocking = try syncHookLog()
        let suspending = try await asyncHookLog()
        c.equal(suspending, blocking, "async save and destroy run the hooks of the sync ones, in the same order")
        c.equal(
            blocking,
            [
                "beforeSave", "beforeCreate", "afterCreate", "afterSave", "beforeSave", "beforeUpdate", "afterUpdate", "afterSave",
                "beforeDestroy", "beforeDelete", "afterDelete", "afterDestroy", "beforeDestroy", "beforeDelete", "beforeDestroy",
                "beforeDelete", "afterDelete", "afterDestroy",
            ], "the documented hook order of save and destroy (a declining beforeDelete stops before anything changes)")
        c.equal(try await ConformanceHooked.count(), 2, "the hook-order records are gone again")
    }

    /// Writes from another isolation inside an async transaction (an actor holding its
    /// own record) join it: they commit with it, and on rollback the store is untouched and
    /// the actor's records get their state from before the write back.
    private static func joiningChecks(_ c: ConformanceChecker) async throws {
        let store = c.store
        let holder = RecordHolder()
        let id = try await holder.create("held", in: store)
        let seenInside = try await store.transaction { _ in
            try await holder.rename("joined")
            try await holder.createSecond("second", in: store)
            return try await ConformanceHooked.find(id, in: store)?.name
        }
        c.equal(seenInside, "joined", "a write from another isolation is seen inside the async transaction")
        c.equal(try await ConformanceHooked.find(id, in: store)?.name, "joined", "a write from another isolation commits with the transaction")
        guard c.hasTransactions("writes from another isolation roll back with the transaction") else {
            _ = try await ConformanceHooked.query(in: store).where(\.name == "second").deleteAll()
            _ = try await ConformanceHooked.delete(id: id, in: store)
            return
        }
        _ = try await ConformanceHooked.query(in: store).where(\.name == "second").deleteAll()
        await c.expectThrows(Refused.self, "a throwing async transaction with writes from another isolation") {
            try await store.transaction { _ in
                try await holder.rename("rolled back")
                try await holder.createSecond("second", in: store)
                throw Refused()
            }
        }
        c.equal(try await ConformanceHooked.find(id, in: store)?.name, "joined", "the other isolation's write rolled back")
        c.equal(try await ConformanceHooked.query(in: store).where(\.name == "second").count(), 0, "the other isolation's insert rolled back")
        let (name, dirty, secondIsNew) = await holder.state
        c.expect(
            name == "rolled back" && dirty && secondIsNew,
            "the other isolation's records are back to their unsaved state (\(name ?? "nil"), dirty \(dirty), new \(secondIsNew))")
        _ = try await ConformanceHooked.delete(id: id, in: store)
    }

    /// A commit another party made to the store — published on the commit bus, as a REST
    /// pull and a PostgreSQL notification are — reaches a record a context holds and the
    /// change streams, stamped external and with the store.
    private static func externalCommitChecks(_ c: ConformanceChecker) async throws {
        let store = c.store
        let schema = ConformanceHooked.schema
        let id = try await ConformanceHooked.create(["name": "external v1"], in: store).id ?? 0
        let context = ModelContext()
        let held = try context.run { try ConformanceHooked.find(id, in: store) }
        let stream = ModelNotifications.changes(of: ConformanceHooked.self)
        guard var row = try store.find(id: .int(id), in: schema), let name = schema.index(ofColumn: "name") else {
            c.expect(false, "the external-commit record is stored")
            return
        }
        row[name] = .string("external v2")  // another party writes the row, behind the model layer
        try store.update(row, changedColumns: [name], in: schema)
        CommitBus.publishExternal([.external(.update, schema: schema, id: .int(id), values: row)], schemas: [schema], store: store)
        c.equal(held?.name, "external v2", "an external commit reaches a record a context holds")
        c.expect(held?.isDirty == false, "…which stays clean")
        var seen: ModelChange?
        for await change in stream where change.isExternal && change.isIn(store) {  // other stores' checks run meanwhile
            seen = change
            break
        }
        c.expect(seen?.id == .int(id) && seen?.action == .update, "an external commit reaches the change streams, stamped with its store")
        _ = try await ConformanceHooked.delete(id: id, in: store)
    }

    /// The hooks a create, an update, a destroy, a declined destroy and a destroy run,
    /// through the synchronous API (a sync function: async code picks the async forms).
    private static func syncHookLog() throws -> [String] {
        let record = ConformanceHooked()
        record.name = "hooks"
        try record.save()
        record.name = "hooks, renamed"
        try record.save()
        _ = try record.destroy()
        let first = record.log
        record.decline = ["beforeDelete"]
        try record.save()
        record.log = []
        let declined = try record.destroy()
        record.decline = []
        _ = try record.destroy()
        return first + (declined ? ["declined destroy went ahead"] : []) + record.log
    }

    /// ``syncHookLog()`` through the async API.
    private static func asyncHookLog() async throws -> [String] {
        let record = ConformanceHooked()
        record.name = "hooks"
        try await record.save()
        record.name = "hooks, renamed"
        try await record.save()
        _ = try await record.destroy()
        let first = record.log
        record.decline = ["beforeDelete"]
        try await record.save()
        record.log = []
        let declined = try await record.destroy()
        record.decline = []
        _ = try await record.destroy()
        return first + (declined ? ["declined destroy went ahead"] : []) + record.log
    }

    static func observation(_ c: ConformanceChecker) async throws {
        try ConformancePerson.seed()
        let store = c.store
        let reads = ReadCounter()
        var adults = ConformancePerson.where(\.age >= 40).order(by: \.name).observe { query in
            reads.add()
            return try query.pluck(\.name)
        }.makeAsyncIterator()
        c.equal(try await adults.next(), ["Ann Marie", "Bob", "Eve", "Ünïcødé 🐶"], "the first value is the current result")
        try await ConformancePerson.create(["name": "Zed", "age": 90])
        c.expect(try await adults.next()?.contains("Zed") == true, "a commit yields a fresh result")
        try await store.transaction { _ in
            for k in 0..<20 { try await ConformancePerson.create(["name": .string("old \(k)"), "age": 60], in: store) }
        }
        if c.hasTransactions("no result for a rolled-back transaction") {
            _ = try? await store.transaction { _ in
                try await ConformancePerson.create(["name": "never", "age": 99], in: store)
                throw Refused()
            }
        }
        try await ConformanceHooked.create(["name": "another table"])
        let before = reads.value
        c.equal(try await adults.next()?.count, 25, "a transaction of 20 inserts yields one result with all of them")
        c.equal(reads.value, before + 1, "one read for the commit; none for the rollback or another table")
    }
}

/// Counts reads from the pool threads.
///
/// `@unchecked Sendable`: `count` is only touched while holding `lock`.
private final class ReadCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// Records owned by an actor of their own: another isolation than an async transaction's.
private actor RecordHolder {
    private var record: ConformanceHooked?
    private var second: ConformanceHooked?

    func create(_ name: String, in store: any PersistenceAdapter) async throws -> Int64 {
        let made = try await ConformanceHooked.create(["name": .string(name)], in: store)
        record = made
        return made.id ?? 0
    }

    func rename(_ name: String) async throws {
        record?.name = name
        try await record?.save()
    }

    func createSecond(_ name: String, in store: any PersistenceAdapter) async throws {
        let made = ConformanceHooked()
        made.name = name
        second = made
        try await made.save(to: store)
    }

    var state: (name: String?, dirty: Bool, secondIsNew: Bool) {
        (record?.name, record?.isDirty ?? false, second?.isNew ?? false)
    }
}
