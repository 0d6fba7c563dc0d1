import Foundation
import ModelCore
import ModelQuery

/// Relations, delete rules and eager loading.
enum RelationChecks {
    /// An owner with two pets (two toys each), two stickers, two visits, a license and
    /// `debts` debts.
    @discardableResult
    static func family(_ name: String, debts: Int = 0) throws -> ConformanceOwner {
        let owner = try ConformanceOwner.create(["name": .string(name)])
        for pet in ["\(name)-rex", "\(name)-tom"] {
            let created = try owner.pets.create(["name": .string(pet)])
            for toy in ["ball", "bone"] { try created.toys.create(["label": .string("\(pet)-\(toy)")]) }
        }
        for text in ["x", "y"] { try owner.stickers.create(["text": .string(text)]) }
        for day in [1, 2] { try owner.visits.create(["day": .int(Int64(day))]) }
        for k in 0..<debts { try owner.debts.create(["amount": .double(Double(k) + 0.5)]) }
        let license = ConformanceLicense()
        license.number = "L-\(name)"
        owner.license = license
        try owner.save()
        return owner
    }

    static func relations(_ c: ConformanceChecker) throws {
        let ann = try family("ann")
        let bob = try family("bob", debts: 1)
        c.equal(try ann.pets.count(), 2, "has-many count")
        c.equal(try ann.pets.all().map(\.name), ["ann-rex", "ann-tom"], "has-many in store order")
        c.equal(try ann.pets.first()?.owner?.name, "ann", "belongs-to parent")
        c.equal(try ann.toys.count(), 4, "has-many-through")
        c.equal(ann.license?.number, "L-ann", "has-one")
        c.equal(try ConformanceLicense.find(ann.license?.id ?? 0)?.load(\.owner)?.id, ann.id, "has-one's foreign key")

        // Explicit loading: properties of a fetched record hold nothing until loaded.
        let fetchedPet = try ConformancePet.where(\.name == "ann-rex").first()
        c.equal(fetchedPet?.owner == nil, true, "an unloaded belongs-to reads nil without a query")
        c.equal(try fetchedPet?.load(\.owner)?.name, "ann", "load(_:) reads the parent")
        c.equal(fetchedPet?.owner?.name, "ann", "the loaded parent stays")
        let fetchedOwner = try ConformanceOwner.find(ann.id ?? 0)
        c.equal(fetchedOwner?.license == nil, true, "an unloaded has-one reads nil without a query")
        c.equal(try fetchedOwner?.load(\.license)?.number, "L-ann", "load(_:) reads the has-one child")
        c.equal(try fetchedOwner?.load(\.pets).map(\.name), ["ann-rex", "ann-tom"], "load(_:) reads the children")
        c.equal(fetchedOwner?.pets.loaded?.first?.owner === fetchedOwner, true, "loaded children know their owner")
        c.equal(try ann.pets.where(\.name == "ann-tom").count(), 1, "querying through has-many")

        // Moving a child between parents.
        let moving = try ann.pets.first()
        if let moving { try bob.pets.append(moving) }
        c.equal(try ann.pets.count(), 1, "moved child left the old parent")
        c.equal(try bob.pets.count(), 3, "moved child joined the new parent")
        if let moving { try ann.pets.append(moving) }

        // Restrict: nothing happens.
        let restricted = c.expectThrows(ModelError.self, "destroying an owner with debts") { try bob.destroy() }
        c.equal(restricted?.kind, .restricted, "restrict kind")
        c.equal(try ConformanceOwner.count(), 2, "restricted owner kept")
        c.equal(try bob.pets.count(), 2, "restricted owner's pets kept")

        // Destroy applies every rule, in one transaction.
        let destroyedBefore = ConformancePet.destroyed.value
        try ann.destroy()
        c.equal(try ConformanceOwner.count(), 1, "owner destroyed")
        c.equal(try ConformancePet.where(\.name == "ann-rex").count(), 0, ".destroy removes children")
        c.equal(ConformancePet.destroyed.value - destroyedBefore, 2, ".destroy runs the children's hooks")
        c.equal(try ConformanceToy.where("label").beginsWith("ann-").count(), 0, ".destroy cascades to grandchildren")
        c.equal(try ConformanceSticker.count(), 2, ".delete removes children (bob's remain)")
        c.equal(try ConformanceVisit.count(), 4, ".nullify keeps children")
        c.equal(try ConformanceVisit.where("owner_id").isNull().count(), 2, ".nullify clears their foreign key")
        c.equal(try ConformanceLicense.count(), 1, "has-one .destroy")

        // delete() skips the model layer's rules; what the store does is a capability.
        try bob.debts.query.deleteAll()
        let bobID = bob.id ?? 0
        try bob.delete()
        let orphans = try ConformancePet.where("owner_id").eq(.int(bobID)).count()
        let visits = try ConformanceVisit.where("owner_id").eq(.int(bobID)).count()
        if c.limitations.contains(.modelServer) {
            c.skip("delete() leaves related rows: the server applies its delete rules to every delete (.modelServer)")
        } else if c.capabilities.contains(.foreignKeyActions) {
            c.equal(orphans, 0, "delete(): the store cascades to .destroy children")
            c.equal(visits, 0, "delete(): the store nullifies .nullify children")
        } else {
            c.equal(orphans, 2, "delete(): children are left as they were (no store-level foreign keys)")
            c.equal(visits, 2, "delete(): .nullify children keep their key")
        }
        try deleteRuleCascade(c)
    }

    /// `dependent: .delete` bulk-deletes the children without hooks and applies the
    /// children's own rules at row level, as SQL `ON DELETE` actions do: the same result
    /// on every adapter (SQLite's foreign keys and the in-memory stores agreed only on
    /// the children before).
    static func deleteRuleCascade(_ c: ConformanceChecker) throws {
        func shelf(_ name: String) throws -> ConformanceShelf {
            let shelf = try ConformanceShelf.create(["name": .string(name)])
            for box in ["a", "b"] {
                let created = try shelf.boxes.create(["name": .string("\(name)-\(box)")])
                for item in ["1", "2"] { try created.items.create(["name": .string("\(name)-\(box)-\(item)")]) }
                try created.tags.create(["name": .string("\(name)-\(box)-tag")])
            }
            return shelf
        }
        let top = try shelf("top")
        let low = try shelf("low")
        let hooksBefore = ConformanceBoxItem.destroyed.value
        try top.destroy()
        c.equal(try ConformanceBox.where("name").beginsWith("top-").count(), 0, ".delete removes the children")
        c.equal(try ConformanceBoxItem.where("name").beginsWith("top-").count(), 0, ".delete: grandchildren under .destroy are deleted too")
        c.equal(ConformanceBoxItem.destroyed.value - hooksBefore, 0, ".delete runs no hooks, also for grandchildren")
        c.equal(try ConformanceBoxTag.where("name").beginsWith("top-").count(), 2, ".delete: grandchildren under .nullify stay")
        c.equal(try ConformanceBoxTag.where("name").beginsWith("top-").where("box_id").isNull().count(), 2, "…with a nil key")
        c.equal(try ConformanceBoxItem.where("name").beginsWith("low-").count(), 4, "other parents' grandchildren untouched")

        // A grandchild under .restrict refuses the whole destroy.
        let box = try low.boxes.first()
        try box?.locks.create(["name": "lock"])
        let refused = c.expectThrows(ModelError.self, ".delete over a restricted grandchild") { try low.destroy() }
        c.equal(refused?.kind, .restricted, ".delete: a restricting grandchild refuses")
        c.equal(try ConformanceShelf.where(\.name == "low").count(), 1, "the refused parent is kept")
        c.equal(try ConformanceBox.where("name").beginsWith("low-").count(), 2, "the refused parent's children are kept")
        c.equal(try ConformanceBoxItem.where("name").beginsWith("low-").count(), 4, "…and its grandchildren")
    }

    static func eagerLoading(_ c: ConformanceChecker) throws {
        try family("ann")
        try family("bob")
        let owners = try ConformanceOwner.query().including(\.pets) { $0.including(\.toys) }.all()
        let pets = try ConformancePet.query().including(\.owner).all()
        let licensed = try ConformanceOwner.query().including(\.license).all()
        // Remove the rows: what was preloaded must still answer, without the store.
        _ = try ConformanceToy.query().deleteAll()
        _ = try ConformancePet.query().deleteAll()
        c.equal(owners.count, 2, "owners loaded")
        c.equal(try owners.map { try $0.pets.count() }, [2, 2], "children preloaded per parent")
        c.equal(try owners.first?.pets.all().map(\.name), ["ann-rex", "ann-tom"], "preloaded children in store order")
        c.equal(try owners.first?.pets.first()?.toys.count(), 2, "nested include preloaded")
        c.equal(pets.map { $0.owner?.name }, ["ann", "ann", "bob", "bob"], "parents preloaded")
        c.equal(licensed.map { $0.license?.number }, ["L-ann", "L-bob"], "has-one preloaded")
        let none = try ConformanceOwner.where(\.name == "nobody").including(\.pets).all()
        c.equal(none.count, 0, "including on an empty result")

        // Every owner (read by "key is set" where the adapter can ask for it) or some of
        // them (by id): each gets its own children, a child with no owner goes nowhere.
        try family("cy")
        try ConformancePet.create(["name": "stray"])
        let all = try ConformanceOwner.query().order(by: "name").including(\.pets).all()
        c.equal(try all.map { try $0.pets.all().map(\.name) }, [[], [], ["cy-rex", "cy-tom"]], "every owner: own children only")
        let some = try ConformanceOwner.where(\.name == "cy").including(\.pets).all()
        c.equal(try some.map { try $0.pets.all().map(\.name) }, [["cy-rex", "cy-tom"]], "some owners: own children only")
        let strays = try ConformancePet.where(\.name == "stray").including(\.owner).all()
        c.equal(strays.map { $0.owner == nil }, [true], "a child with no owner loads no parent")
    }
}
