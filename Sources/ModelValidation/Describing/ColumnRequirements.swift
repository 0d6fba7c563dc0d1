import Foundation

/// What a model's declared rules ask of one column, in a form other tools can read:
/// form builders, JSON Schema export, API documentation.
///
/// ```swift
/// let name = try User.requirements().first { $0.column == "name" }
/// name?.isRequired     // true  (.presence)
/// name?.maxLength      // 50    (.length(2...50))
/// ```
///
/// Only the rules that apply in the context asked for are described. Rules that have no
/// declarative form — `require {}`, validators, record-level checks, `each` — are counted
/// in ``customRules`` so a reader knows the description is not the whole story.
public struct ColumnRequirements: Sendable, Equatable {
    /// The column's stored name.
    public let column: String
    /// A `presence` rule applies: nil, blank strings and empty collections fail.
    public var isRequired = false
    /// Some rule fails on nil (`presence`, or a rule with `.allowNil(false)`).
    public var rejectsNil = false
    /// The smallest length a `length` rule allows (characters, items or bytes by column type).
    public var minLength: Int?
    /// The largest length a `length` rule allows.
    public var maxLength: Int?
    /// The regular expressions of `format` rules (each must match the whole string).
    public var patterns: [String] = []
    /// An `email` rule applies.
    public var isEmail = false
    /// The schemes of a `url` rule, when one applies.
    public var urlSchemes: [String]?
    /// The values an `inclusion` rule allows (those of every such rule, when several apply).
    public var allowedValues: [ModelValue]?
    /// The values `exclusion` rules refuse.
    public var excludedValues: [ModelValue] = []
    /// The number must be at least this (`numericality`).
    public var minimum: Double?
    /// The number must be greater than this.
    public var exclusiveMinimum: Double?
    /// The number must be at most this.
    public var maximum: Double?
    /// The number must be less than this.
    public var exclusiveMaximum: Double?
    /// A `numericality(onlyInteger: true)` rule applies.
    public var integerOnly = false
    /// A `uniqueness` rule applies.
    public var isUnique = false
    /// A `confirmation` rule applies.
    public var needsConfirmation = false
    /// How many applicable rules have no declarative description (custom checks,
    /// validators, element rules).
    public var customRules = 0

    /// Requirements with no rules, for `column`.
    public init(column: String) { self.column = column }
}

extension Validatable {
    /// What the model's rules ask of each column in `context`, one entry per column in
    /// column order (columns without rules have empty requirements).
    ///
    /// - Throws: ``ValidationDefinitionError`` when the declaration is malformed.
    public static func requirements(in context: ValidationContext = .create) throws(ValidationDefinitionError)
        -> [ColumnRequirements]
    {
        let plan = try ValidationPlans.plan(for: Self.self)
        var result = Self.schema.columns.map { ColumnRequirements(column: $0.name) }
        for rule in plan.rules where rule.contexts.map({ $0.contains(context) }) ?? true {
            guard result.indices.contains(rule.slot) else { continue }
            if !rule.allowsNil { result[rule.slot].rejectsNil = true }
            result[rule.slot].describe(rule.check)
        }
        return result
    }
}

extension ColumnRequirements {
    fileprivate mutating func describe(_ check: CompiledRule.Check) {
        switch check {
        case .presence:
            isRequired = true
            rejectsNil = true
        case .length(let min, let max, let exact, _):
            if let min { minLength = Swift.max(minLength ?? min, min) }
            if let max { maxLength = Swift.min(maxLength ?? max, max) }
            if exact, let min { maxLength = Swift.min(maxLength ?? min, min) }
        case .format(let pattern): patterns.append(pattern.source)
        case .email: isEmail = true
        case .url(let grammar): urlSchemes = grammar.schemes
        case .numericality(let bounds): describe(bounds)
        case .inclusion(let values): allowedValues = allowedValues.map { old in old.filter(values.contains) } ?? values
        case .exclusion(let values): excludedValues += values
        case .uniqueness: isUnique = true
        case .confirmation, .confirmationProperty: needsConfirmation = true
        case .custom, .validator, .each: customRules += 1
        }
    }

    private mutating func describe(_ bounds: NumericBounds) {
        if bounds.onlyInteger { integerOnly = true }
        func atLeast(_ v: Double) { minimum = Swift.max(minimum ?? v, v) }
        func atMost(_ v: Double) { maximum = Swift.min(maximum ?? v, v) }
        if let v = bounds.greaterThan { exclusiveMinimum = Swift.max(exclusiveMinimum ?? v, v) }
        if let v = bounds.lessThan { exclusiveMaximum = Swift.min(exclusiveMaximum ?? v, v) }
        if let v = bounds.greaterThanOrEqualTo { atLeast(v) }
        if let v = bounds.lessThanOrEqualTo { atMost(v) }
        if let v = bounds.equalTo { atLeast(v); atMost(v) }
        if let r = bounds.range { atLeast(r.lowerBound); atMost(r.upperBound) }
    }
}
