import ArrayAdapter
import Foundation
import Testing

@Suite struct ValidationStateTests {
    @Test func statesFollowChangesAndValidations() throws {
        try withStore { (store: ArrayAdapter) throws in
            let account = Account()
            account.password = "secret"  // required on create
            #expect(account.validationState == .dirty)
            account.revert()
            #expect(account.validationState == .empty)
            account.password = "secret"
            account.name = "A"
            #expect(account.validationState == .dirty)
            let errors = try account.validate()
            #expect(account.validationState == .invalid(errors))
            #expect(try account.isValid == false)
            account.name = "Ada"
            #expect(account.validationState == .dirty)
            #expect(try account.isValid)
            #expect(account.validationState == .valid)
            #expect(account.errors.isEmpty)
        }
    }

    @Test func revertReturnsToTheLastValidStateThenTheSavedOne() throws {
        try withStore { (store: ArrayAdapter) throws in
            let account = Account(name: "Ada", email: "ada@example.com")
            try account.save()
            account.name = "Ada Lovelace"
            #expect(try account.isValid)
            account.name = "A"
            account.email = "broken"
            #expect(try account.isValid == false)
            account.revert()
            #expect(account.name == "Ada Lovelace" && account.email == "ada@example.com")
            #expect(account.validationState == .valid)
            account.revert()
            #expect(account.name == "Ada" && !account.isDirty)
        }
    }

    @Test func aSaveOrReloadMakesTheSavedStateTheRevertTarget() throws {
        try withStore { (store: ArrayAdapter) throws in
            let account = Account(name: "Ada")
            #expect(try account.isValid)  // valid while new
            try account.save()
            account.name = "Bea"
            try account.save()
            account.name = "X"
            account.revert()
            #expect(account.name == "Bea")
            account.name = "Cy"
            #expect(try account.isValid)
            try account.reload()
            account.name = "Q"
            account.revert()
            #expect(account.name == "Bea")
        }
    }
}
