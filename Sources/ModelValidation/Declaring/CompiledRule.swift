import Foundation

/// A rule checked against its column: what the runner evaluates.
struct CompiledRule: Sendable {
    let slot: Int
    let column: ColumnDefinition
    let check: Check
    let message: String?
    let contexts: Set<ValidationContext>?
    let allowsNil: Bool

    enum Check: Sendable {
        case presence
        case length(min: Int?, max: Int?, exact: Bool, unit: String)
        case format(Pattern)
        case email
        case url(URLAddress)
        case numericality(NumericBounds)
        case inclusion([ModelValue])
        case exclusion([ModelValue])
        case uniqueness(scope: [Int], caseSensitive: Bool)
        case confirmation(slot: Int)
        case confirmationProperty(@Sendable (ModelObject) -> ModelValue)
        case custom(code: String, body: @Sendable (ModelValue, ModelObject) -> Bool)
        case validator(any ColumnValidator)
        /// Rules on each element: the element's check, its message, whether nil passes.
        case each([(check: Check, message: String?, allowsNil: Bool)])
    }

    /// A compiled, whole-string regular expression.
    final class Pattern: Sendable {
        let source: String
        let regex: NSRegularExpression

        init(_ source: String) throws {
            self.source = source
            self.regex = try NSRegularExpression(pattern: "\\A(?:" + source + ")\\z")
        }

        func matches(_ s: String) -> Bool {
            regex.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) != nil
        }
    }
}

/// A record-level check added with `Validations.validate(on:_:)`.
struct RecordCheck<M>: Sendable {
    let contexts: Set<ValidationContext>?
    let body: @Sendable (M, inout ValidationErrors) -> Void
}

/// A model's validations, built once per type.
final class ValidationPlan<M>: Sendable {
    let rules: [CompiledRule]
    let checks: [RecordCheck<M>]
    let problem: ValidationDefinitionError?
    /// Whether any rule reads the store (uniqueness, also inside `each`).
    let readsStore: Bool

    init(rules: [CompiledRule], checks: [RecordCheck<M>], problem: ValidationDefinitionError?) {
        self.rules = rules
        self.checks = checks
        self.problem = problem
        func reads(_ check: CompiledRule.Check) -> Bool {
            switch check {
            case .uniqueness: true
            case .each(let inner): inner.contains { reads($0.check) }
            default: false
            }
        }
        readsStore = rules.contains { reads($0.check) }
    }
}
