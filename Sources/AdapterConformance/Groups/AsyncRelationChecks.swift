import Foundation
import ModelCore
import ModelQuery

extension AsyncChecks {
    /// An async save of an owner with a staged has-one child (`owner.license = l`) writes
    /// both in one async transaction: the child is linked, a replaced child follows the
    /// relation's rule, and a child write that fails rolls back the owner's row and the
    /// rule's work.
    static func stagedRelationChecks(_ c: ConformanceChecker) async throws {
        let store = c.store
        let owner = ConformanceOwner()
        owner.name = "staged"
        let first = ConformanceLicense()
        first.number = "S-1"
        owner.license = first
        try await owner.save(to: store)
        let ownerID = owner.id ?? 0
        c.expect(owner.id != nil && first.id != nil, "an async save writes the owner and its staged has-one child")
        c.equal(try await ConformanceLicense.find(first.id ?? 0, in: store)?["owner_id"], .int(ownerID), "the staged child is linked")

        let second = ConformanceLicense()
        second.number = "S-2"
        owner.license = second
        try await owner.save()
        let numbers = try await ConformanceLicense.query(in: store).where("owner_id").eq(.int(ownerID)).pluck(\.number)
        c.equal(numbers, ["S-2"], "an async save replacing a staged child destroys the old one (.destroy)")
        c.expect(owner.license === second && !owner.isDirty, "the replaced child is the owner's after the save")

        guard c.hasTransactions("a failing staged child rolls back the async save") else {
            _ = try await owner.destroy()
            return
        }
        // A child whose row went behind its back: linking it is an update the store refuses.
        let vanished = try await ConformanceLicense.create(["number": "S-3"], in: store)
        _ = try await ConformanceLicense.delete(id: vanished.id ?? 0, in: store)
        owner.name = "staged, renamed"
        owner.license = vanished
        await c.expectThrows((any Error).self, "an async save whose staged child cannot be written") { try await owner.save() }
        c.expect(owner.isDirty && owner.name == "staged, renamed", "the failed owner keeps its edit, unsaved")
        c.equal(try await ConformanceOwner.find(ownerID, in: store)?.name, "staged", "the owner's update rolled back")
        let kept = try await ConformanceLicense.query(in: store).where("owner_id").eq(.int(ownerID)).pluck(\.number)
        c.equal(kept, ["S-2"], "the replaced child's destroy rolled back")
        owner.license = second
        _ = try await owner.destroy()
    }
}
