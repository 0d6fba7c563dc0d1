import Foundation

/// What a rule checks, as declared (before it is checked against the model's columns).
enum RuleKind: Sendable {
    case presence
    case length(min: Int?, max: Int?, exact: Bool)
    case format(String)
    case email
    case url(schemes: [String])
    case numericality(NumericBounds)
    case inclusion([ModelValue])
    case exclusion([ModelValue])
    case uniqueness(scope: [String], caseSensitive: Bool)
    case confirmation(ConfirmationSource)
    case custom(code: String, check: @Sendable (ModelValue, ModelObject) -> Bool)
    case named(String)
    case validator(any ColumnValidator)
    case each([ElementRule])

    /// The rule's name in definition errors.
    var name: String {
        switch self {
        case .presence: "presence"
        case .length: "length"
        case .format: "format"
        case .email: "email"
        case .url: "url"
        case .numericality: "numericality"
        case .inclusion: "inclusion"
        case .exclusion: "exclusion"
        case .uniqueness: "uniqueness"
        case .confirmation: "confirmation"
        case .custom: "require"
        case .named(let name): "validator \"\(name)\""
        case .validator(let v): "validator \"\(v.code)\""
        case .each: "each"
        }
    }
}

/// Where a confirmation value comes from.
enum ConfirmationSource: Sendable {
    /// Another column, by stored name.
    case column(String)
    /// Any property of the record (typically a plain, unstored `var`).
    case property(@Sendable (ModelObject) -> ModelValue)
}

/// The limits of a numericality rule.
struct NumericBounds: Sendable {
    var onlyInteger = false
    var greaterThan: Double?
    var greaterThanOrEqualTo: Double?
    var lessThan: Double?
    var lessThanOrEqualTo: Double?
    var equalTo: Double?
    var range: ClosedRange<Double>?

    /// Why these bounds can never all hold, if they cannot.
    var contradiction: String? {
        let bounds = [greaterThan, greaterThanOrEqualTo, lessThan, lessThanOrEqualTo, equalTo, range?.lowerBound, range?.upperBound]
        if bounds.contains(where: { $0.map { !$0.isFinite } ?? false }) { return "bounds must be finite numbers" }
        var low = -Double.infinity, lowOpen = false
        var high = Double.infinity, highOpen = false
        func raiseLow(_ v: Double, open: Bool) {
            if v > low || (v == low && open) { (low, lowOpen) = (v, open) }
        }
        func dropHigh(_ v: Double, open: Bool) {
            if v < high || (v == high && open) { (high, highOpen) = (v, open) }
        }
        if let v = greaterThan { raiseLow(v, open: true) }
        if let v = greaterThanOrEqualTo { raiseLow(v, open: false) }
        if let v = lessThan { dropHigh(v, open: true) }
        if let v = lessThanOrEqualTo { dropHigh(v, open: false) }
        if let v = equalTo { raiseLow(v, open: false); dropHigh(v, open: false) }
        if let r = range { raiseLow(r.lowerBound, open: false); dropHigh(r.upperBound, open: false) }
        if low > high || (low == high && (lowOpen || highOpen)) {
            return "no number satisfies the bounds (the lower limit is not below the upper one)"
        }
        if onlyInteger, low.isFinite, high.isFinite, (low...high).isEmpty == false {
            let first = lowOpen ? (low + 1).rounded(.down) : low.rounded(.up)
            if first > high || (first == high && highOpen) { return "no integer satisfies the bounds" }
        }
        return nil
    }
}

/// One rule applied to every element of an array column (``ValidationRule/each(_:)``).
struct ElementRule: Sendable {
    let kind: RuleKind
    let message: String?
    let allowsNil: Bool
}
