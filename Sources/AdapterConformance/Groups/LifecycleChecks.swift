import Foundation
import ModelCore
import ModelQuery
import ModelValidation

/// Transactions, hooks, validations and notifications.
enum LifecycleChecks {
    private struct Refused: Error {}

    private static func names() throws -> [String] { try ConformanceHooked.query().pluck(\.name) }

    static func transactions(_ c: ConformanceChecker) throws {
        let store = c.store
        try store.transaction {
            try ConformanceHooked.create(["name": "a"])
            try ConformanceHooked.create(["name": "b"])
        }
        c.equal(try names(), ["a", "b"], "a committed transaction")
        c.expectThrows(Refused.self, "a throwing transaction") {
            try store.transaction {
                try ConformanceHooked.create(["name": "c"])
                try ConformanceHooked.where(\.name == "a").updateAll(["name": "a!"])
                throw Refused()
            }
        }
        c.equal(try names(), ["a", "b"], "a rolled-back transaction left nothing")
        try store.transaction {
            try ConformanceHooked.create(["name": "outer"])
            c.expectThrows(Refused.self, "a throwing savepoint") {
                try store.transaction {
                    try ConformanceHooked.create(["name": "inner"])
                    _ = try ConformanceHooked.where(\.name == "b").deleteAll()
                    throw Refused()
                }
            }
            try store.transaction { try ConformanceHooked.create(["name": "inner kept"]) }
        }
        c.equal(try names(), ["a", "b", "outer", "inner kept"], "savepoints undo exactly their level")
        let record = try ConformanceHooked.create(["name": "record"])
        c.expectThrows(Refused.self, "rollback restores the record") {
            try store.transaction {
                record.name = "changed"
                try record.save()
                throw Refused()
            }
        }
        c.equal(record.name, "changed", "the record gets its state from before the save back")
        c.expect(record.isDirty, "…so its unsaved change is dirty again")
        c.equal(try ConformanceHooked.find(record.id ?? 0)?.name, "record", "the stored row is unchanged")
        let fresh = ConformanceHooked()
        fresh.name = "new"
        c.expectThrows(Refused.self, "rollback of an insert") {
            try store.transaction {
                try fresh.save()
                throw Refused()
            }
        }
        c.expect(fresh.isNew && fresh.id == nil, "a rolled-back insert leaves the record new")
        // An inner level commits, then the outer one rolls back: rows and records both undone.
        let nested = ConformanceHooked()
        nested.name = "nested"
        let stored = try ConformanceHooked.create(["name": "stored"])
        c.expectThrows(Refused.self, "an outer rollback after an inner commit") {
            try store.transaction {
                try store.transaction {
                    try nested.save()
                    stored.name = "stored, changed"
                    try stored.save()
                }
                c.expect(!nested.isNew && nested.id != nil, "inside: the inner level committed the insert")
                throw Refused()
            }
        }
        c.expect(nested.isNew && nested.id == nil, "outer rollback: the inserted record is new again, without id")
        c.equal(try ConformanceHooked.where(\.name == "nested").count(), 0, "outer rollback: its row is gone")
        c.expect(stored.isDirty, "outer rollback: the updated record is dirty again")
        c.equal(try ConformanceHooked.find(stored.id ?? 0)?.name, "stored", "outer rollback: its row is as before")
        try nested.save()
        c.expect(!nested.isNew && nested.id != nil, "the restored record saves again")

        // A second save is an update, after which the record is clean.
        stored.name = "second"
        try stored.save()
        c.expect(!stored.isDirty && stored.changes.isEmpty, "clean after an update")

        // Deleting a record and inserting another with the same id (the id index).
        let doomedID = try ConformanceHooked.create(["name": "doomed"]).id ?? 0
        try ConformanceHooked.find(doomedID)?.delete()
        c.equal(try ConformanceHooked.find(doomedID)?.name, nil, "deleted id not found")
        let reborn = ConformanceHooked()
        reborn.id = doomedID
        reborn.name = "reborn"
        try reborn.save()
        c.equal(try ConformanceHooked.find(doomedID)?.name, "reborn", "a new record under a deleted id is found")
        c.equal(try ConformanceHooked.where(\.name == "doomed").count(), 0, "the old row does not come back")

        let next = try ConformanceHooked.create(["name": "after"])
        c.expect((next.id ?? 0) > (record.id ?? 0), "ids keep increasing after rollbacks")
    }

    /// The timestamps a save stamped are those a reload reads, bit for bit: the model
    /// layer stamps them at the store's precision (PostgreSQL's microseconds, a SQLite
    /// column's date storage), so the record held, its ETag and a reload agree.
    private static func heldTimestampsAreStored(_ c: ConformanceChecker, _ held: ConformanceHooked, _ when: String) throws {
        let reloaded = try ConformanceHooked.find(held.id ?? 0)
        func bits(_ date: Date?) -> UInt64? { date?.timeIntervalSinceReferenceDate.bitPattern }
        c.equal(bits(reloaded?.createdAt), bits(held.createdAt), "\(when): created_at held equals created_at stored")
        c.equal(bits(reloaded?.updatedAt), bits(held.updatedAt), "\(when): updated_at held equals updated_at stored")
    }

    static func hooks(_ c: ConformanceChecker) throws {
        let hooked = ConformanceHooked()
        hooked.name = "h"
        try hooked.save()
        c.equal(hooked.log, ["beforeSave", "beforeCreate", "afterCreate", "afterSave"], "create hooks")
        c.expect(hooked.createdAt != nil && hooked.updatedAt != nil, "timestamps set on create")
        try heldTimestampsAreStored(c, hooked, "after a create")
        hooked.log = []
        hooked.name = "h2"
        try hooked.save()
        c.equal(hooked.log, ["beforeSave", "beforeUpdate", "afterUpdate", "afterSave"], "update hooks")
        try heldTimestampsAreStored(c, hooked, "after an update")

        for hook in ["beforeSave", "beforeUpdate"] {
            hooked.log = []
            hooked.decline = [hook]
            hooked.name = "declined by \(hook)"
            c.equal(try hooked.saveIfValid(), false, "\(hook) returning false declines the save")
            c.equal(try ConformanceHooked.find(hooked.id ?? 0)?.name, "h2", "\(hook): store unchanged")
            c.expect(hooked.isDirty, "\(hook): the record keeps its changes")
        }
        hooked.decline = ["beforeCreate"]
        let declined = ConformanceHooked()
        declined.decline = ["beforeCreate"]
        c.equal(try declined.saveIfValid(), false, "beforeCreate declines an insert")
        c.expect(declined.isNew, "a declined insert leaves the record new")
        c.equal(try ConformanceHooked.count(), 1, "nothing inserted")

        hooked.decline = ["beforeDelete"]
        hooked.log = []
        c.equal(try hooked.delete(), false, "beforeDelete declines")
        c.equal(try ConformanceHooked.count(), 1, "declined delete keeps the row")
        hooked.decline = []
        hooked.log = []
        try hooked.destroy()
        c.equal(hooked.log, ["beforeDestroy", "beforeDelete", "afterDelete", "afterDestroy"], "destroy hooks")
        c.equal(try ConformanceHooked.count(), 0, "destroyed")
    }

    static func validations(_ c: ConformanceChecker) throws {
        let first = ConformanceAccount()
        first.email = "ada@example.com"
        first.team = "red"
        c.equal(try first.saveIfValid(), true, "a valid record saves")
        first.age = 40
        c.equal(try first.saveIfValid(), true, "uniqueness does not clash with the record itself")
        let clash = ConformanceAccount()
        clash.email = "ADA@example.com"
        clash.team = "red"
        c.equal(try clash.saveIfValid(), false, "case-insensitive uniqueness against the store")
        c.equal(clash.errors.fullMessages, ["email has already been taken"], "uniqueness message")
        clash.team = "blue"
        c.equal(try clash.saveIfValid(), true, "another scope does not clash")
        let wildcard = ConformanceAccount()
        wildcard.email = "a_a@example.com"
        try wildcard.save()
        let lookalike = ConformanceAccount()
        lookalike.email = "aba@example.com"
        c.equal(try lookalike.saveIfValid(), true, "LIKE wildcards in values are literal")
        let bad = ConformanceAccount()
        bad.email = "not an email"
        bad.age = 200
        c.equal(try bad.saveIfValid(), false, "invalid values refuse the save")
        c.equal(Set(bad.errors.map(\.column)), ["email", "age"], "both columns reported")
        c.expectThrows(RecordInvalid.self, "save() of an invalid record throws") { try bad.save() }
        c.equal(try ConformanceAccount.count(), 4, "nothing invalid stored")
    }

    static func notifications(_ c: ConformanceChecker) throws {
        let store = c.store
        let thread = currentThreadID()
        let table = ConformanceHooked.schema.tableName
        final class Box: @unchecked Sendable {
            // @unchecked Sendable: written only by the observer, which runs synchronously on
            // the posting thread, the same thread that reads it.
            var events: [String] = []
        }
        let box = Box()
        let observer = NotificationCenter.default.addObserver(forName: .modelDidChange, object: nil, queue: nil) { note in
            guard currentThreadID() == thread, let change = note.userInfo?["change"] as? ModelChange,
                change.schema.tableName == table
            else { return }
            box.events.append("\(change.action.rawValue) \(change.id) \(change.count)")
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let record = try ConformanceHooked.create(["name": "n"])
        let id = record.id ?? 0
        c.equal(box.events, ["insert \(id) 1"], "insert announced")
        record.name = "n2"
        try record.save()
        c.equal(box.events.last, "update \(id) 1", "update announced")
        box.events = []
        try store.transaction {
            try ConformanceHooked.create(["name": "t1"])
            try ConformanceHooked.create(["name": "t2"])
            c.equal(box.events, [], "nothing announced before commit")
        }
        c.equal(box.events.count, 2, "both announced after commit")
        box.events = []
        if c.hasTransactions("no announcement for a rollback") {
            c.expectThrows(Refused.self, "rolled back") {
                try store.transaction {
                    try ConformanceHooked.create(["name": "gone"])
                    throw Refused()
                }
            }
            c.equal(box.events, [], "nothing announced for a rollback")
            try store.transaction {
                try ConformanceHooked.create(["name": "kept"])
                c.expectThrows(Refused.self, "a savepoint rolled back") {
                    try store.transaction {
                        try ConformanceHooked.create(["name": "undone"])
                        throw Refused()
                    }
                }
            }
            c.equal(box.events.count, 1, "a rolled-back savepoint announces nothing at commit: only the kept insert")
            let kept = try ConformanceHooked.where(\.name == "kept").first()
            c.equal(box.events, ["insert \(kept?.id ?? -1) 1"], "the kept insert's announcement")
            try kept?.delete()
            box.events = []
        }
        try ModelNotifications.withoutNotifications { try ConformanceHooked.create(["name": "quiet"]) }
        c.equal(box.events, [], "suppressed")
        try record.delete()
        c.equal(box.events, ["delete \(id) 1"], "delete announced")
        box.events = []
        _ = try ConformanceHooked.query().deleteAll()
        c.equal(box.events, ["deleteAll nil 3"], "one event for a bulk delete")
    }
}
