import ArrayAdapter
import Foundation
import Testing

@Suite struct UniquenessTests {
    @Test func uniquenessIsCheckedAgainstTheStoreScopedAndExcludingItself() throws {
        try withStore { (store: ArrayAdapter) throws in
            let first = Account(name: "Ada", email: "ada@example.com", team: "red")
            try first.save()
            // the record itself is not a clash
            first.name = "Ada L."
            #expect(try first.saveIfValid())

            let clash = Account(name: "Other", email: "ADA@example.com", team: "red")  // case-insensitive
            #expect(try clash.saveIfValid() == false)
            #expect(clash.errors.fullMessages == ["email has already been taken"])

            clash.team = "blue"  // another scope
            #expect(try clash.saveIfValid())

            let noTeam = Account(name: "Nil team", email: "ada@example.com", team: nil)
            #expect(try noTeam.saveIfValid())  // scope value nil is its own scope
            let noTeamClash = Account(name: "Nil team 2", email: "ada@example.com", team: nil)
            #expect(try noTeamClash.saveIfValid() == false)

            let noEmail1 = Account(name: "No email 1"), noEmail2 = Account(name: "No email 2")
            #expect(try noEmail1.saveIfValid() && noEmail2.saveIfValid())  // nils never clash
            #expect(try Account.count() == 5)
        }
    }

    @Test func likeWildcardsInValuesAreLiteral() throws {
        try withStore { (store: ArrayAdapter) throws in
            try Account(name: "Ada", email: "a_b@example.com").save()
            #expect(try Account(name: "Bob", email: "axb@example.com").saveIfValid())
            #expect(try Account(name: "Cy", email: "A_B@EXAMPLE.COM").saveIfValid() == false)
        }
    }

    @Test func caseSensitiveUniquenessByDefault() throws {
        final class Tag: Model, Validatable {
            @Column var label: String = ""
            init() {}
            static func validations(_ v: inout Validations<Tag>) { v.add(\.label, .uniqueness()) }
        }
        try withStore { (store: ArrayAdapter) throws in
            try Tag.create(["label": "swift"])
            #expect(throws: RecordInvalid.self) { try Tag.create(["label": "swift"]) }
            #expect(try Tag.create(["label": "Swift"]).label == "Swift")
            #expect(try Tag.count() == 2)
        }
    }

    @Test func uniquenessUsesTheStoreOfTheSave() throws {
        let a = ArrayAdapter(), b = ArrayAdapter()
        try Account(name: "Ada", email: "ada@example.com").save(to: a)
        #expect(try Account(name: "Ada", email: "ada@example.com").saveIfValid(to: b))
        #expect(try Account(name: "Ada", email: "ada@example.com").saveIfValid(to: a) == false)
        #expect(try Account(name: "Ada", email: "ada@example.com").validate(store: a).codes(for: "email") == ["taken"])
    }
}
