import ArrayAdapter
import Foundation
import Testing

struct HookFailure: Error, Equatable { let hook: String }

/// Records the hooks it runs; can decline or throw in any of them.
final class Hooked: Model {
    @Column var name: String = ""
    var log: [String] = []
    var decline: String?
    var fail: String?
    init() {}

    private func run(_ hook: String) throws -> Bool {
        log.append(hook)
        if fail == hook { throw HookFailure(hook: hook) }
        if decline == hook {
            name = "changed by \(hook)"  // must be undone on cancel
            return false
        }
        return true
    }
    func beforeSave() throws -> Bool { try run("beforeSave") }
    func afterSave() { log.append("afterSave") }
    func beforeCreate() throws -> Bool { try run("beforeCreate") }
    func afterCreate() { log.append("afterCreate") }
    func beforeUpdate() throws -> Bool { try run("beforeUpdate") }
    func afterUpdate() { log.append("afterUpdate") }
    func beforeDelete() throws -> Bool { try run("beforeDelete") }
    func afterDelete() { log.append("afterDelete") }
    func beforeDestroy() throws -> Bool { try run("beforeDestroy") }
    func afterDestroy() { log.append("afterDestroy") }
}

@Suite("Hooks")
struct HookTests {
    @Test func orderOnCreateUpdateDeleteDestroy() throws {
        try withStore { (_: ArrayAdapter) throws in
            let h = Hooked()
            try h.save()
            #expect(h.log == ["beforeSave", "beforeCreate", "afterCreate", "afterSave"])
            h.log = []
            h.name = "x"
            try h.save()
            #expect(h.log == ["beforeSave", "beforeUpdate", "afterUpdate", "afterSave"])
            h.log = []
            try h.delete()
            #expect(h.log == ["beforeDelete", "afterDelete"])
            try h.save()
            h.log = []
            try h.destroy()
            #expect(h.log == ["beforeDestroy", "beforeDelete", "afterDelete", "afterDestroy"])
        }
    }

    @Test(arguments: ["beforeSave", "beforeCreate"])
    func decliningCreateLeavesStoreAndRecordUntouched(hook: String) throws {
        try withStore { (_: ArrayAdapter) throws in
            let h = Hooked()
            h.name = "original"
            h.decline = hook
            #expect(try h.saveIfValid() == false)
            #expect(h.isNew)
            #expect(h.id == nil)
            #expect(h.name == "original")
            #expect(try Hooked.count() == 0)
            #expect(!h.log.contains("afterSave"))
            let error = #expect(throws: ModelError.self) { try h.save() }
            #expect(error?.kind == .cancelled)
        }
    }

    @Test(arguments: ["beforeSave", "beforeUpdate"])
    func throwingUpdateHookLeavesStoreAndRecordUntouched(hook: String) throws {
        try withStore { (_: ArrayAdapter) throws in
            let h = Hooked()
            h.name = "v1"
            try h.save()
            h.name = "v2"
            h.fail = hook
            #expect(throws: HookFailure(hook: hook)) { try h.save() }
            #expect(h.isDirty)
            #expect(h.name == "v2")
            #expect(try stored(h)?.name == "v1")
        }
    }

    @Test(arguments: ["beforeDelete", "beforeDestroy"])
    func decliningDeleteKeepsTheRow(hook: String) throws {
        try withStore { (_: ArrayAdapter) throws in
            let h = Hooked()
            try h.save()
            h.decline = hook
            let result = hook == "beforeDelete" ? try h.delete() : try h.destroy()
            #expect(result == false)
            #expect(!h.isNew)
            #expect(try Hooked.count() == 1)
            h.decline = nil
            h.fail = hook
            #expect(throws: HookFailure.self) { _ = hook == "beforeDelete" ? try h.delete() : try h.destroy() }
            #expect(try Hooked.count() == 1)
        }
    }

    @Test func destroyAllIsAllOrNothing() throws {
        try withStore { (_: ArrayAdapter) throws in
            for name in ["a", "b", "keep", "c"] { try Guarded.create(["name": .string(name)]) }
            let error = #expect(throws: ModelError.self) { try Guarded.destroyAll() }
            #expect(error?.kind == .cancelled)
            #expect(try Guarded.count() == 4)  // "a" and "b" were destroyed, then rolled back
            #expect(try Guarded.all().map(\.name) == ["a", "b", "keep", "c"])
            try Guarded.deleteAll()
            try Guarded.create(["name": "x"])
            #expect(try Guarded.destroyAll() == 1)
            #expect(try Guarded.count() == 0)
        }
    }

    @Test func deleteAndDestroyRejectNewRecords() throws {
        try withStore { (_: ArrayAdapter) throws in
            let h = Hooked()
            #expect(throws: ModelError.self) { try h.delete() }
            #expect(throws: ModelError.self) { try h.destroy() }
        }
    }
}

/// Declines destruction of records named "keep".
final class Guarded: Model {
    @Column var name: String = ""
    init() {}
    func beforeDestroy() throws -> Bool { name != "keep" }
}
