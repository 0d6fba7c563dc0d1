import ArrayAdapter
@testable import ModelValidation
import Foundation
import Testing

/// Malformed declarations are reported when the validations are built, never ignored.
@Suite struct DefinitionTests {
    final class Broken: Model, Validatable {
        @Column var name: String = ""
        @Column var count: Int = 0
        @Column var when: Date?
        var transient = ""
        init() {}
        static func validations(_ v: inout Validations<Broken>) {}
    }

    /// Builds a throwaway model type per case by declaring on a fresh generic instance.
    static func problem(_ declare: @escaping (inout Validations<Broken>) -> Void) -> ValidationDefinitionError? {
        var v = Validations<Broken>()
        declare(&v)
        return v.plan().problem
    }

    struct Case: Sendable, CustomStringConvertible {
        let label: String
        let rule: String
        let fragment: String
        let declare: @Sendable (inout Validations<Broken>) -> Void
        var description: String { label }
    }

    static let cases: [Case] = [
        Case(label: "unknown column", rule: "add", fragment: "no column named \"nmae\"") { $0.add("nmae", .presence) },
        Case(label: "not a column", rule: "add", fragment: "not an @Column") { $0.add(\.transient, .presence) },
        Case(label: "no rules", rule: "add", fragment: "no rules") { $0.add(\.name) },
        Case(label: "empty half-open range", rule: "length", fragment: "empty") { $0.add(\.name, .length(3..<3)) },
        Case(label: "reversed bounds", rule: "length", fragment: "empty") { $0.add(\.name, .length(..<0)) },
        Case(label: "negative minimum", rule: "length", fragment: "negative") { $0.add(\.name, .length((-1)...)) },
        Case(label: "length on a number", rule: "length", fragment: "not to count (int)") { $0.add(\.count, .length(1...)) },
        Case(label: "bad regex", rule: "format", fragment: "not a valid regular expression") { $0.add(\.name, .format("([a-z")) },
        Case(label: "empty regex", rule: "format", fragment: "empty") { $0.add(\.name, .format("")) },
        Case(label: "email on a date", rule: "email", fragment: "string columns") { $0.add(\.when, .email) },
        Case(label: "contradictory numbers", rule: "numericality", fragment: "no number") {
            $0.add(\.count, .numericality(greaterThan: 10, lessThan: 5))
        },
        Case(label: "open equal bounds", rule: "numericality", fragment: "no number") {
            $0.add(\.count, .numericality(greaterThan: 5, lessThanOrEqualTo: 5))
        },
        Case(label: "no integer between", rule: "numericality", fragment: "no integer") {
            $0.add(\.count, .numericality(onlyInteger: true, greaterThan: 1, lessThan: 2))
        },
        Case(label: "numericality on a date", rule: "numericality", fragment: "number and string") {
            $0.add(\.when, .numericality())
        },
        Case(label: "empty inclusion", rule: "inclusion", fragment: "empty") { $0.add(\.name, .inclusion(in: [])) },
        Case(label: "uncastable inclusion", rule: "inclusion", fragment: "cannot be a value") {
            $0.add(\.count, .inclusion(in: [1, "two"]))
        },
        Case(label: "empty exclusion", rule: "exclusion", fragment: "empty") { $0.add(\.name, .exclusion(from: [])) },
        Case(label: "unknown scope", rule: "uniqueness", fragment: "scope column \"tema\"") {
            $0.add(\.name, .uniqueness(scope: ["tema"]))
        },
        Case(label: "case-insensitive number", rule: "uniqueness", fragment: "string column") {
            $0.add(\.count, .uniqueness(caseSensitive: false))
        },
        Case(label: "unknown confirmation", rule: "confirmation", fragment: "does not exist") {
            $0.add(\.name, .confirmation("name_confirmation"))
        },
        Case(label: "unknown validator", rule: "validator \"nope\"", fragment: "no validator") { $0.add(\.name, .validator("nope")) },
        Case(label: "validator on the wrong type", rule: "validator \"isbn\"", fragment: "does not apply to int") {
            $0.add(\.count, .validator(ISBNValidator()))
        },
        Case(label: "no context", rule: "presence", fragment: "names no context") { $0.add(\.name, .presence.on()) },
    ]

    @Test(arguments: cases) func malformedRulesAreRejected(_ c: Case) throws {
        let found = Self.problem(c.declare)
        let problem = try #require(found)
        #expect(problem.model == "Broken")
        #expect(problem.rule == c.rule)
        #expect(problem.description.contains(c.fragment), "\(problem)")
    }

    @Test func aWellFormedDeclarationHasNoProblem() {
        let found = Self.problem { $0.add(\.name, .presence, .length(1...3)); $0.add(\.count, .numericality(in: 0...9)) }
        #expect(found == nil)
    }

    @Test func everyProblemIsReported() throws {
        let found = Self.problem { $0.add("a", .presence); $0.add("b", .presence) }
        let problem = try #require(found)
        #expect(problem.description.contains("\"a\"") && problem.description.contains("and 1 more") && problem.description.contains("\"b\""))
    }

    @Test func aMalformedModelFailsEveryValidationAndSave() throws {
        final class Bad: Model, Validatable {
            @Column var name: String = ""
            init() {}
            static func validations(_ v: inout Validations<Bad>) { v.add(\.name, .length(3..<3)) }
        }
        try withStore { (store: ArrayAdapter) throws in
            #expect(throws: ValidationDefinitionError.self) { try Bad.checkValidations() }
            let bad = Bad()
            #expect(throws: ValidationDefinitionError.self) { try bad.validate() }
            #expect(throws: ValidationDefinitionError.self) { try bad.save() }
            #expect(throws: ValidationDefinitionError.self) { try bad.save() }  // not cached as valid
            #expect(try Bad.count() == 0)
            #expect(try bad.saveIfValid(validate: false))
        }
    }

    @Test func fixturesAreWellFormed() throws {
        try Profile.checkValidations()
        try Account.checkValidations()
    }
}
