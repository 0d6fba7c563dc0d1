import ArrayAdapter
import Foundation
import Testing

/// Each built-in rule, with passing and failing values, checked with `validate(value:for:)`.
@Suite struct RuleTests {
    struct Case: Sendable, CustomStringConvertible {
        let column: String
        let value: ModelValue
        let codes: [String]
        init(_ column: String, _ value: ModelValue, _ codes: [String]) {
            self.column = column
            self.value = value
            self.codes = codes
        }
        var description: String { "\(column) = \(value.debugDescription) → \(codes)" }
    }

    static let presenceCases: [Case] = [
        Case("name", "Ada", []), Case("name", "", ["blank", "too_short"]), Case("name", "   \n\t", ["blank"]),
        Case("tags", ["a"], []), Case("tags", [], ["blank", "too_short"]),
        Case("settings", ["k": 1], []), Case("settings", [:], ["blank"]),
        Case("birthday", .date(Date(timeIntervalSince1970: 0)), []), Case("birthday", .null, ["blank"]),
        Case("active", false, []), Case("active", true, []), Case("active", .null, ["blank"]),
    ]

    static let lengthCases: [Case] = [
        // closed 2...10 (characters, not bytes)
        Case("name", "Al", []), Case("name", "A", ["too_short"]), Case("name", "Abcdefghij", []),
        Case("name", "Abcdefghijk", ["too_long"]), Case("name", "Zoë Ødegård", ["too_long"]), Case("name", "Øyvind", []),
        // half-open ..<5
        Case("nickname", "abcd", []), Case("nickname", "abcde", ["too_long"]), Case("nickname", .null, []),
        // exact 3
        Case("code", "ABC", []), Case("code", "AB", ["wrong_length"]), Case("code", "ABCD", ["wrong_length"]),
        // one-sided ...20
        Case("bio", "", []), Case("bio", .string(String(repeating: "x", count: 20)), []),
        Case("bio", .string(String(repeating: "x", count: 21)), ["too_long"]),
        // arrays 1..<3, data ...4 bytes
        Case("tags", ["a", "b"], []), Case("tags", ["a", "b", "c"], ["too_long"]),
        Case("avatar", .data(Data([1, 2, 3, 4])), []), Case("avatar", .data(Data([1, 2, 3, 4, 5])), ["too_long"]),
        // at least 3, nil not allowed
        Case("motto", "carpe", []), Case("motto", "ok", ["too_short"]), Case("motto", .null, ["too_short"]),
    ]

    static let formatCases: [Case] = [
        Case("code", "XYZ", []), Case("code", "xyz", ["invalid"]), Case("code", "AB1", ["invalid"]),
        // anchored: a match inside the value is not enough
        Case("code", "A\nB", ["invalid"]), Case("code", .null, []),
    ]

    static let emailCases: [Case] = [
        Case("email", "ada@example.com", []), Case("email", "first.last+tag@sub.example.co.uk", []),
        Case("email", "o'brien@example.ie", []), Case("email", .null, []),
        Case("email", "ada", ["invalid_email"]), Case("email", "ada@", ["invalid_email"]),
        Case("email", "@example.com", ["invalid_email"]), Case("email", "ada@localhost", ["invalid_email"]),
        Case("email", "ada@example..com", ["invalid_email"]), Case("email", "ada..x@example.com", ["invalid_email"]),
        Case("email", "ada@-example.com", ["invalid_email"]), Case("email", "ada @example.com", ["invalid_email"]),
        Case("email", "ada@example.123", ["invalid_email"]), Case("email", "", ["invalid_email"]),
    ]

    static let numericalityCases: [Case] = [
        Case("age", 0, []), Case("age", 149, []), Case("age", -1, ["greater_than_or_equal_to"]),
        Case("age", 150, ["less_than"]), Case("age", "42", []), Case("age", .null, []),
        Case("score", 0, []), Case("score", 10, []), Case("score", 9.99, []),
        Case("score", 10.01, ["not_in_range"]), Case("score", -0.5, ["not_in_range"]),
        Case("zip", "98101", []), Case("zip", " 98101 ", []), Case("zip", "98a01", ["not_a_number"]),
        Case("zip", "98.5", ["not_an_integer"]), Case("zip", "", ["not_a_number"]),
    ]

    static let setsCases: [Case] = [
        Case("role", "member", []), Case("role", "admin", []), Case("role", "owner", ["inclusion"]),
        Case("username", "ada", []), Case("username", "root", ["exclusion"]), Case("username", .null, []),
    ]

    static let customCases: [Case] = [
        Case("nickname", "ace", []), Case("nickname", "a b", ["invalid"]),
        Case("level", 3, []), Case("level", 4, ["odd"]),
        Case("isbn", "978-0-306-40615-7", []), Case("isbn", "978-0-306-40615-8", ["isbn"]), Case("isbn", .null, []),
    ]

    @Test(arguments: presenceCases) func presence(_ c: Case) throws { #expect(try codes(c.value, c.column) == c.codes) }
    @Test(arguments: lengthCases) func length(_ c: Case) throws { #expect(try codes(c.value, c.column) == c.codes) }
    @Test(arguments: formatCases) func format(_ c: Case) throws { #expect(try codes(c.value, c.column) == c.codes) }
    @Test(arguments: emailCases) func email(_ c: Case) throws { #expect(try codes(c.value, c.column) == c.codes) }
    @Test(arguments: numericalityCases) func numericality(_ c: Case) throws {
        #expect(try codes(c.value, c.column) == c.codes)
    }
    @Test(arguments: setsCases) func inclusionAndExclusion(_ c: Case) throws {
        #expect(try codes(c.value, c.column) == c.codes)
    }
    @Test(arguments: customCases) func customRulesAndValidators(_ c: Case) throws {
        #expect(try codes(c.value, c.column) == c.codes)
    }

    @Test func confirmationComparesWithTheUnstoredProperty() throws {
        let profile = Profile()
        #expect(try profile.validate(value: "s3cret", for: "password").isEmpty)  // no confirmation given
        profile.passwordConfirmation = "s3cret"
        #expect(try profile.validate(value: "s3cret", for: "password").isEmpty)
        #expect(try profile.validate(value: "other", for: "password").codes(for: "password") == ["confirmation"])
    }

    @Test func candidateValuesAreCastLikeAssignments() throws {
        let profile = Profile()
        #expect(try profile.validate(value: "200", for: "age").codes(for: "age") == ["less_than"])
        #expect(throws: CastError.self) { try profile.validate(value: "many", for: "age") }
        #expect(throws: ModelError.self) { try profile.validate(value: 1, for: "nope") }
        #expect(try profile.validate("A", for: \.name).codes(for: "name") == ["too_short"])
        #expect(profile.name == "" && profile.errors.isEmpty && profile.validationState == .empty)
    }
}
