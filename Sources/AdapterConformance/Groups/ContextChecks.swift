import Foundation
import ModelCore
import ModelQuery
import ModelSerialization
import ModelValidation

/// Contexts on the adapter under test: one instance per record on every load path, the
/// unit of work, the context stack, files and merges between contexts.
enum ContextChecks {
    static func contexts(_ c: ConformanceChecker) throws {
        try identity(c)
        try unitOfWork(c)
        try allOrNothing(c)
        try deleteRules(c)
        try stack(c)
        try files(c)
        try merges(c)
    }

    static func identity(_ c: ConformanceChecker) throws {
        let ann = try RelationChecks.family("ctx-ann")
        let annID = ann.id ?? -1
        c.expect(try ConformanceOwner.find(annID) !== ConformanceOwner.find(annID), "without a context, each find makes an instance")
        let context = ModelContext()
        try context.run {
            let owner = try ConformanceOwner.find(annID)
            let again = try ConformanceOwner.find(annID)
            c.expect(owner != nil && owner === again, "find twice: one instance")
            c.expect(try ConformanceOwner.where(\.name == "ctx-ann").first() === owner, "a query returns the held instance")
            let pets = try owner?.pets.all() ?? []
            c.equal(pets.count, 2, "the children load")
            c.expect(try pets.first?.load(\.owner) === owner, "a belongs-to load returns the held parent")
            c.expect(try ConformancePet.find(pets.first?.id ?? -1) === pets.first, "find after a relation load: one instance")
            let eager = try ConformanceOwner.query().including(\.pets).all().first { $0.id == annID }
            c.expect(eager === owner, "eager loading returns the held owner")
            let eagerPets = try ConformancePet.query().including(\.owner).all().filter { $0.owner === owner && $0.owner != nil }
            c.equal(eagerPets.count, 2, "eager-loaded parents are the held instance")
            c.expect(pets.allSatisfy { pet in eagerPets.contains { $0 === pet } }, "eager loading returns the held children")
            _ = try ConformanceOwner.importRecords([["id": .int(annID), "name": "ctx-ann2"]])
            c.equal(owner?.name, "ctx-ann2", "an import updates the held instance")

            let cat = ConformanceOwner()
            cat.name = "ctx-cat"
            try cat.save()
            c.expect(try ConformanceOwner.find(cat.id ?? -1) === cat, "a new record joins on save")
            let line = try ConformanceLogLine.create(["text": "x"])
            c.expect(
                try ConformanceLogLine.find(line.id ?? -1) !== ConformanceLogLine.find(line.id ?? -1),
                "a model that opted out loads fresh instances")
            _ = c.expectThrows(ContextError.self, "a model that opted out cannot be inserted") {
                try context.insert(ConformanceLogLine())
            }
            c.expect(context.count >= 4, "count includes what was loaded (\(context.count))")
            c.expect(context.approximateByteSize > 0, "approximate size")
            c.expect(ModelContext.current === context, "the context is current in its scope")
        }
        c.expect(ModelContext.current == nil, "and not after it")
        context.clear()
        c.equal(context.count, 0, "clear empties the context")
    }

    static func unitOfWork(_ c: ConformanceChecker) throws {
        let context = ModelContext()
        let owner = ConformanceOwner()
        owner.name = "uow-owner"
        let pet = ConformancePet()
        pet.name = "uow-pet"
        pet.owner = owner
        let toy = ConformanceToy()
        toy.label = "uow-toy"
        toy.pet = pet
        // Children first: the save must order parents before them.
        try context.insert(toy)
        try context.insert(pet)
        try context.insert(owner)
        c.expect(context.hasChanges, "inserts are changes")
        c.equal(context.changes.inserted.count, 3, "three inserts pending")
        c.equal(try ConformanceOwner.where(\.name == "uow-owner").count(), 0, "nothing is stored before save()")
        try context.save()
        c.expect(!context.hasChanges, "nothing pending after save()")
        let storedPet = try ConformancePet.find(pet.id ?? -1)
        let storedOwner = try storedPet?.load(\.owner)
        c.expect(owner.id != nil && storedOwner?.id == owner.id, "the parent was saved first and the child points at it")
        c.equal(try ConformanceToy.find(toy.id ?? -1)?.load(\.pet)?.id, pet.id, "the grandchild points at the child")

        pet.name = "uow-pet2"
        try context.delete(toy)
        c.equal(context.changes.updated.count, 1, "one update pending")
        c.equal(context.changes.deleted.count, 1, "one delete pending")
        try context.save()
        c.equal(try ConformancePet.find(pet.id ?? -1)?.name, "uow-pet2", "the update was written")
        c.equal(try ConformanceToy.where(\.label == "uow-toy").count(), 0, "the delete was written")
        c.expect(toy.isNew, "a deleted record is new again")

        pet.name = "scratch"
        let extra = ConformanceOwner()
        extra.name = "uow-extra"
        try context.insert(extra)
        context.rollback()
        c.equal(pet.name, "uow-pet2", "rollback() restores saved values")
        c.expect(!context.hasChanges, "rollback() leaves nothing pending")
        try context.save()
        c.equal(try ConformanceOwner.where(\.name == "uow-extra").count(), 0, "a rolled-back insert is not saved")
    }

    static func allOrNothing(_ c: ConformanceChecker) throws {
        if c.limitations.contains(.noTransactions) {
            c.skip("contexts: all-or-nothing saves need store transactions (.noTransactions)")
            return
        }
        let context = ModelContext()
        let stored = try ConformanceAccount.create(["email": "ctx-stored@example.com", "age": 20])
        try context.insert(stored)
        stored.age = 21
        let good = ConformanceAccount()
        good.email = "ctx-good@example.com"
        good.age = 30
        let bad = ConformanceAccount()
        bad.email = "ctx-bad@example.com"
        bad.age = 500
        try context.insert(good)
        try context.insert(bad)
        _ = c.expectThrows(RecordInvalid.self, "an invalid record fails the save") { try context.save() }
        c.equal(try ConformanceAccount.where(\.email == "ctx-good@example.com").count(), 0, "the valid insert was rolled back")
        c.equal(try ConformanceAccount.find(stored.id ?? -1)?.age, 20, "the update was rolled back")
        c.expect(good.isNew && good.id == nil, "an inserted record keeps its unsaved state")
        c.equal(stored.age, 21, "a changed record keeps its change")
        c.expect(context.hasChanges, "the work is still pending")
        bad.age = 40
        try context.save()
        c.equal(try ConformanceAccount.where("email").endsWith("@example.com").count() >= 3, true, "the fixed save writes all")
        c.equal(try ConformanceAccount.find(stored.id ?? -1)?.age, 21, "…the update included")
    }

    static func deleteRules(_ c: ConformanceChecker) throws {
        let family = try RelationChecks.family("ctx-del")
        let familyID = family.id ?? -1
        let context = ModelContext()
        let destroyedBefore = ConformancePet.destroyed.value
        try context.run {
            guard let owner = try ConformanceOwner.find(familyID) else { return c.expect(false, "the family loads") }
            try context.delete(owner)
            c.expect(try ConformanceOwner.find(familyID) == nil, "find in the context skips a deleted record")
            c.equal(try ConformanceOwner.where(\.name == "ctx-del").all().count, 0, "queries in the context skip it")
            try context.save()
        }
        c.equal(try ConformanceOwner.where(\.name == "ctx-del").count(), 0, "the owner is deleted")
        c.equal(ConformancePet.destroyed.value - destroyedBefore, 2, "the pets were destroyed (.destroy, hooks ran)")
        c.equal(try ConformanceToy.where("label").beginsWith("ctx-del-").count(), 0, "and their toys")
        c.equal(try ConformanceSticker.where("owner_id").eq(familyID).count(), 0, "stickers deleted (.delete)")

        let debtor = try RelationChecks.family("ctx-debt", debts: 1)
        let restricted = ModelContext()
        try restricted.insert(debtor)
        try restricted.delete(debtor)
        _ = c.expectThrows(ModelError.self, "a .restrict rule fails the save") { try restricted.save() }
        c.equal(try ConformanceOwner.where(\.name == "ctx-debt").count(), 1, "nothing was deleted")
        c.expect(restricted.hasChanges, "the delete stays pending")

        // One save deleting a restricted parent and its only child: the child goes first,
        // so the rule finds nothing left to refuse.
        let settled = try RelationChecks.family("ctx-settled", debts: 1)
        let settledID = settled.id ?? -1
        let both = ModelContext()
        try both.run {
            guard let owner = try ConformanceOwner.find(settledID), let debt = try owner.debts.first() else {
                return c.expect(false, "the family and its debt load")
            }
            try both.delete(owner)
            try both.delete(debt)
            try both.save()
        }
        c.equal(try ConformanceOwner.where(\.name == "ctx-settled").count(), 0, "a parent deleted with its restricting child is gone")
        c.equal(try ConformanceDebt.where("owner_id").eq(settledID).count(), 0, "and so is the child")
    }

    static func stack(_ c: ConformanceChecker) throws {
        let stored = try ConformanceOwner.create(["name": "stack"])
        let storedID = stored.id ?? -1
        let root = ModelContext(name: "root")
        try root.run {
            guard let mine = try ConformanceOwner.find(storedID) else { return c.expect(false, "the owner loads") }
            var heard = 0
            let observation = try mine.observe(\.name) { _, _ in heard += 1 }
            defer { observation.cancel() }
            try ModelContext.withTemporary { scratch in
                c.expect(ModelContext.current === scratch && scratch.parent === root, "a temporary context is pushed as a child")
                c.equal(ModelContext.stack.count, 2, "the stack holds both")
                let theirs = try ConformanceOwner.find(storedID)
                c.expect(theirs != nil && theirs !== mine, "a child context has its own instance")
                theirs?.name = "scratch"
            }
            c.expect(ModelContext.current === root, "popped")
            c.equal(mine.name, "stack", "popping discards the temporary context's changes")

            let child = ModelContext(parent: root)
            try child.run {
                let theirs = try ConformanceOwner.find(storedID)
                c.equal(theirs?.name, "stack", "the child starts from the parent's state")
                theirs?.name = "from child"
                let fresh = ConformanceOwner()
                fresh.name = "child-new"
                try child.insert(fresh)
                try child.save()
            }
            c.equal(mine.name, "from child", "a child's save merges into the parent's instance")
            c.equal(heard, 1, "the parent's observers hear the merge once")
            c.equal(try ConformanceOwner.where(\.name == "from child").count(), 0, "a child's save does not touch the store")
            c.expect(root.hasChanges, "the parent now holds the changes")
            try root.save()
            c.equal(heard, 1, "the parent's save does not notify again")
        }
        c.equal(try ConformanceOwner.where(\.name == "from child").count(), 1, "the parent's save writes the merged change")
        c.equal(try ConformanceOwner.where(\.name == "child-new").count(), 1, "and the child's insert")
        try childSaveKeepsTheParentsOwnEdits(c)
    }

    /// A child's save changes only the columns the child changed: the parent's own later
    /// edit to another column survives the merge and is saved.
    static func childSaveKeepsTheParentsOwnEdits(_ c: ConformanceChecker) throws {
        let stored = try ConformancePerson.create(["name": "edits", "age": 3])
        let storedID = stored.id ?? -1
        let root = ModelContext(name: "root")
        try root.run {
            guard let mine = try ConformancePerson.find(storedID) else { return c.expect(false, "the person loads") }
            let child = ModelContext(parent: root)
            try child.run {
                try ConformancePerson.find(storedID)?.name = "from child"
            }
            mine.age = 9  // the parent's own edit, after the child loaded its copy
            try child.save()
            c.equal(mine.name, "from child", "the child's column is merged")
            c.equal(mine.age, 9, "the parent's own edit to another column is kept")
            try root.save()
        }
        let saved = try ConformancePerson.find(storedID)
        c.equal(saved?.name, "from child", "both are saved: the child's column")
        c.equal(saved?.age, 9, "and the parent's")
    }

    static func files(_ c: ConformanceChecker) throws {
        let context = ModelContext()
        let stored = try ConformanceOwner.create(["name": "file-stored"])
        let gone = try ConformanceOwner.create(["name": "file-gone"])
        try context.insert(stored)
        try context.insert(gone)
        stored.name = "file-changed"
        try context.delete(gone)
        let owner = ConformanceOwner()
        owner.name = "file-new"
        let pet = ConformancePet()
        pet.name = "file-pet"
        pet.owner = owner
        try context.insert(owner)
        try context.insert(pet)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ctx-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try context.write(to: url)
        context.clear()
        let restored = try ModelContext(contentsOf: url, models: [ConformanceOwner.self, ConformancePet.self], store: c.store)
        c.equal(restored.count, 4, "every record comes back")
        c.equal(restored.changes.inserted.count, 2, "inserts come back")
        c.equal(restored.changes.updated.count, 1, "changes come back")
        c.equal(restored.changes.deleted.count, 1, "deletes come back")
        try restored.save()
        c.equal(try ConformanceOwner.where(\.name == "file-changed").count(), 1, "the restored change is saved")
        c.equal(try ConformanceOwner.where(\.name == "file-gone").count(), 0, "the restored delete is saved")
        let newOwner = try ConformanceOwner.where(\.name == "file-new").first()
        let newPet = try ConformancePet.where(\.name == "file-pet").first()
        let linked = try newPet?.load(\.owner)
        c.expect(newOwner != nil && linked?.id == newOwner?.id, "a restored link to an unsaved parent is kept")

        try Data("{\"format\": \"something else\"}".utf8).write(to: url)
        _ = c.expectThrows(ContextError.self, "a foreign file is a ContextError") {
            _ = try ModelContext(contentsOf: url, models: [ConformanceOwner.self])
        }
    }

    static func merges(_ c: ConformanceChecker) throws {
        let stored = try ConformanceOwner.create(["name": "merge"])
        let id = stored.id ?? -1
        let a = ModelContext(), b = ModelContext()
        guard let inA = try a.run({ try ConformanceOwner.find(id) }), let inB = try b.run({ try ConformanceOwner.find(id) }) else {
            return c.expect(false, "the owner loads in both contexts")
        }
        c.expect(inA !== inB, "two contexts, two instances")
        var heard = 0
        let observation = try inB.observe(\.name) { _, _ in heard += 1 }
        defer { observation.cancel() }
        inA.name = "merged"
        try a.save()
        c.equal(inB.name, "merged", "a save through one context updates the other's unchanged instance")
        c.equal(heard, 1, "whose observers hear it once")
        c.expect(!b.hasChanges, "the merged value is not a change to save")
        inB.name = "mine"
        inA.name = "theirs"
        try a.save()
        c.equal(inB.name, "mine", "an instance with unsaved changes keeps them")
        b.rollback()
        c.equal(inB.name, "merged", "rollback returns to the last merged state")
        try a.delete(inA)
        try a.save()
        c.expect(inB.isNew, "a delete through another context marks the instance deleted")
        c.equal(try b.run { try ConformanceOwner.find(id) } == nil, true, "and the context no longer holds it")
    }
}
