import Foundation
import ModelCore
import ModelQuery
import ModelValidation

/// Writes by id: the single-statement forms skip per-record behaviour, the closure forms
/// run all of it.
enum ByIDChecks {
    static func writesByID(_ c: ConformanceChecker) throws {
        let ada = try ConformanceAccount.create(["email": "ada@example.com", "age": 36])
        let bob = try ConformanceAccount.create(["email": "bob@example.com", "age": 41])
        let adaID = ada.id ?? -1, bobID = bob.id ?? -1

        // update(id:set:): one statement, cast like assignment, no validation.
        let newAge = 37
        c.equal(try ConformanceAccount.update(id: adaID, set: ["age": newAge]), true, "update(id:set:) finds the row")
        c.equal(try ConformanceAccount.find(adaID)?.age, 37, "update(id:set:) writes")
        c.equal(try ConformanceAccount.update(id: adaID, set: ["age": 37]), true, "an unchanged row still exists")
        c.equal(try ConformanceAccount.update(id: 999, set: ["age": 1]), false, "update(id:set:) of a missing id")
        if c.limitations.contains(.modelServer) {
            c.skip("update(id:set:) skips validations: the server validates every write it receives (.modelServer)")
        } else {
            c.equal(try ConformanceAccount.update(id: bobID, set: ["age": 500]), true, "update(id:set:) skips validations")
            c.equal(try ConformanceAccount.find(bobID)?.age, 500, "…so an out-of-range age is stored")
        }
        _ = c.expectThrows(CastError.self, "update(id:set:) casts") {
            try ConformanceAccount.update(id: adaID, set: ["age": "old"])
        }
        _ = c.expectThrows(ModelError.self, "update(id:set:) of an unknown column") {
            try ConformanceAccount.update(id: adaID, set: ["nope": 1])
        }
        _ = c.expectThrows(ModelError.self, "update(id:set:) cannot set the id") {
            try ConformanceAccount.update(id: adaID, set: ["id": 9])
        }
        c.equal(try ConformanceAccount.find(adaID)?.age, 37, "refused updates wrote nothing")

        // update(id:) { }: loads, validates, saves.
        _ = c.expectThrows(RecordInvalid.self, "update(id:) { } validates") {
            try ConformanceAccount.update(id: adaID) { $0.age = 500 }
        }
        c.equal(try ConformanceAccount.find(adaID)?.age, 37, "an invalid closure update wrote nothing")
        let saved = try ConformanceAccount.update(id: adaID) { $0.age = 38 }
        c.equal(saved?.age, 38, "update(id:) { } returns the saved record")
        c.equal(try ConformanceAccount.find(adaID)?.age, 38, "update(id:) { } writes")
        c.expect(try ConformanceAccount.update(id: 999) { $0.age = 1 } == nil, "update(id:) { } of a missing id")

        // delete(id:) skips hooks; destroy(id:) runs them and the relation rules.
        c.equal(try ConformanceAccount.delete(id: bobID), true, "delete(id:) deletes")
        c.equal(try ConformanceAccount.delete(id: bobID), false, "delete(id:) of a missing id")
        c.equal(try ConformanceAccount.count(), 1, "one account left")
        let owner = try RelationChecks.family("cid")
        let hooksBefore = ConformancePet.destroyed.value
        let rex = try owner.pets.first()
        c.equal(try ConformancePet.delete(id: rex?.id ?? -1), true, "delete(id:) of a pet")
        let serverHooks = c.limitations.contains(.modelServer)
        if serverHooks {
            c.skip("delete(id:) runs no hooks: the server runs its own on every delete (.modelServer)")
        } else {
            c.equal(ConformancePet.destroyed.value - hooksBefore, 0, "delete(id:) runs no hooks")
        }
        let hooksBeforeDestroy = ConformancePet.destroyed.value
        c.equal(try ConformanceOwner.destroy(id: owner.id ?? -1), true, "destroy(id:) destroys")
        if !serverHooks {
            c.equal(ConformancePet.destroyed.value - hooksBeforeDestroy, 1, "destroy(id:) runs the children's hooks")
        } else {
            c.expect(ConformancePet.destroyed.value - hooksBeforeDestroy >= 1, "destroy(id:) runs the children's hooks")
        }
        c.equal(try ConformancePet.where("name").beginsWith("cid-").count(), 0, "destroy(id:) applies the rules")
        c.equal(try ConformanceOwner.destroy(id: owner.id ?? -1), false, "destroy(id:) of a missing id")
    }
}
