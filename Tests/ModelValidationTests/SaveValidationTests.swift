import ArrayAdapter
import Foundation
import Testing

@Suite struct SaveValidationTests {
    @Test func anInvalidSaveWritesNothingAndReturnsFalse() throws {
        try withStore { (store: ArrayAdapter) throws in
            let account = Account(name: "A")
            #expect(try account.saveIfValid() == false)
            #expect(account.isNew && account.id == nil)
            #expect(try Account.count() == 0)
            #expect(account.errors.codes(for: "name") == ["too_short"])
            #expect(account.validationState == .invalid(account.errors))
            #expect(account.createdAt == nil)  // no timestamps stamped
            #expect(account.log == ["beforeValidation", "afterValidation"])  // beforeSave never ran
        }
    }

    @Test func saveAndCreateThrowRecordInvalid() throws {
        try withStore { (store: ArrayAdapter) throws in
            let account = Account(name: "")
            // `try record.save()` can no longer store nothing silently.
            let error = try #require(throws: RecordInvalid.self) { try account.save() }
            #expect(account.isNew && account.id == nil && account.errors.codes(for: "name").contains("blank"))
            #expect(error.model == "Account" && error.id == .null)
            #expect((error as any SwiftModelError).modelName == "Account" && (error as any SwiftModelError).columnName == "name")
            #expect(error.errors.fullMessages == ["name can't be blank", "name is too short (minimum is 2 characters)"])
            #expect(throws: RecordInvalid.self) { try Account.create(["name": "Ada", "email": "not-an-email"]) }
            #expect(try Account.count() == 0)
        }
    }

    @Test func anInvalidUpdateLeavesStoreAndSavedStateUnchanged() throws {
        try withStore { (store: ArrayAdapter) throws in
            let account = Account(name: "Ada", email: "ada@example.com")
            try account.save()
            let savedAt = account.updatedAt
            account.name = "A"
            account.email = "nope"
            #expect(try account.saveIfValid() == false)
            #expect(account.isDirty && !account.isNew)
            #expect(account.changes.keys.sorted() == ["email", "name"])
            #expect(account.updatedAt == savedAt)
            let id = try #require(account.id)
            let stored = try #require(try Account.find(id))
            #expect(stored.name == "Ada" && stored.email == "ada@example.com")
            account.revert()
            #expect(account.name == "Ada" && !account.isDirty)
        }
    }

    @Test func validateFalseSkipsRulesAndHooks() throws {
        try withStore { (store: ArrayAdapter) throws in
            let account = Account(name: "A")
            #expect(try account.saveIfValid(validate: false))
            #expect(account.log == ["beforeSave"])
            try account.save(validate: false)
            #expect(try Account.count() == 1)
        }
    }

    @Test func validationHooksRunOncePerSaveAndMayNormaliseOrDecline() throws {
        try withStore { (store: ArrayAdapter) throws in
            let account = Account(name: "  Ada  ")
            #expect(try account.saveIfValid())
            #expect(account.log == ["beforeValidation", "afterValidation", "beforeSave"])
            #expect(account.name == "Ada")  // normalised before the rules ran
            account.log = []
            account.declineValidation = true
            account.name = "Ada Lovelace"
            #expect(try account.saveIfValid() == false)
            #expect(account.log == ["beforeValidation"])
            let error = try #require(throws: ModelError.self) { try account.save() }
            #expect(error.kind == .cancelled && error.message.contains("beforeValidation"))
            #expect(throws: ModelError.self) { try account.validate() }
        }
    }

    @Test func contextsSelectRulesForCreateUpdateAndCustomNames() throws {
        try withStore { (store: ArrayAdapter) throws in
            let account = Account(name: "Ada", password: nil)
            #expect(try account.validate().codes(for: "password") == ["blank"])  // create
            #expect(try account.validate(in: .update).isEmpty)  // presence is create-only
            try account.save(validate: false)
            #expect(try account.validate().isEmpty)  // stored: update context
            account.plan = "gold"
            #expect(try account.validate().codes(for: "plan") == ["inclusion"])  // update only
            #expect(try account.validate(in: .create).codes(for: "plan").isEmpty)
            account.plan = "pro"
            #expect(try account.validate().codes(for: "email") == ["required_for_pro"])
            let launch = try account.validate(in: "launch")
            #expect(launch.recordErrors.map(\.code) == ["no_team"])
            #expect(launch.fullMessages == ["Accounts need a team to launch"])
        }
    }

    @Test func confirmationOnSave() throws {
        try withStore { (store: ArrayAdapter) throws in
            let account = Account(name: "Ada", password: "one")
            account.passwordConfirmation = "two"
            #expect(try account.saveIfValid() == false)
            #expect(account.errors.fullMessages == ["password doesn't match its confirmation"])
            account.passwordConfirmation = "one"
            #expect(try account.saveIfValid())
        }
    }

    @Test func aValidSaveProceedsNormally() throws {
        try withStore { (store: ArrayAdapter) throws in
            let account = try Account.create(["name": "Grace", "email": "grace@navy.mil", "password": "x"])
            #expect(!account.isNew && account.validationState == .valid)
            #expect(try Account.count() == 1)
        }
    }
}
