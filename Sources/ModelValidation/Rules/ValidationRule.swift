/// One rule on one column of model `M`, whose Swift type is `Value` (`ModelValue` for
/// rules added by column name).
///
/// Rules are made with the static members below and adjusted with modifiers:
///
/// ```swift
/// v.add(\.name, .presence, .length(2...50).message("needs {count} letters or fewer"))
/// v.add(\.age, .numericality(onlyInteger: true, greaterThan: 0).on(.create))
/// v.add(\.nickname, .require { !$0.contains(" ") })
/// ```
///
/// Nil passes every rule except ``presence`` unless the rule says `.allowNil(false)`.
public struct ValidationRule<M: ModelProtocol, Value>: Sendable {
    let kind: RuleKind
    var messageTemplate: String?
    var contexts: Set<ValidationContext>?
    var allowsNil = true

    init(_ kind: RuleKind) { self.kind = kind }

    /// Uses this message (a template: `{count}`, `{unit}`, `{low}`, `{high}`, `{value}`)
    /// instead of the code's default.
    public func message(_ template: String) -> Self {
        var rule = self
        rule.messageTemplate = template
        return rule
    }

    /// Applies the rule only in these contexts (for example `.on(.create)`).
    public func on(_ contexts: ValidationContext...) -> Self {
        var rule = self
        rule.contexts = Set(contexts)
        return rule
    }

    /// Whether nil passes (the default for every rule but ``presence``). With `false`, nil
    /// fails the rule with the rule's own code.
    public func allowNil(_ allow: Bool) -> Self {
        var rule = self
        rule.allowsNil = allow
        return rule
    }
}

extension ValidationRule {
    /// The value must be present: non-nil, and not an empty string (after trimming
    /// whitespace), array, dictionary or data. Dates, numbers, bools and UUIDs are present
    /// whenever they are non-nil. Code `blank`.
    public static var presence: Self {
        var rule = Self(.presence)
        rule.allowsNil = false
        return rule
    }

    /// The length (characters of a string, elements of an array or dictionary, bytes of
    /// data) lies in `range`. Codes `too_short`, `too_long`.
    public static func length(_ range: ClosedRange<Int>) -> Self {
        Self(.length(min: range.lowerBound, max: range.upperBound, exact: false))
    }

    /// The length lies in the half-open `range` (`2..<10` allows 2 through 9).
    public static func length(_ range: Range<Int>) -> Self {
        Self(.length(min: range.lowerBound, max: range.upperBound - 1, exact: false))
    }

    /// The length is at least `range.lowerBound` (`2...`).
    public static func length(_ range: PartialRangeFrom<Int>) -> Self {
        Self(.length(min: range.lowerBound, max: nil, exact: false))
    }

    /// The length is at most `range.upperBound` (`...50`).
    public static func length(_ range: PartialRangeThrough<Int>) -> Self {
        Self(.length(min: nil, max: range.upperBound, exact: false))
    }

    /// The length is below `range.upperBound` (`..<51`).
    public static func length(_ range: PartialRangeUpTo<Int>) -> Self {
        Self(.length(min: nil, max: range.upperBound - 1, exact: false))
    }

    /// The length is exactly `count`. Code `wrong_length`.
    public static func length(exactly count: Int) -> Self {
        Self(.length(min: count, max: count, exact: true))
    }

    /// The whole string matches the regular expression `pattern` (ICU syntax, as
    /// `NSRegularExpression`; it is anchored for you). Code `invalid`.
    public static func format(_ pattern: String) -> Self { Self(.format(pattern)) }

    /// The string is an email address (`local@domain.tld`, ASCII; internationalised domains
    /// must be punycoded). Code `invalid_email`.
    public static var email: Self { Self(.email) }

    /// The string is an absolute URL with one of `schemes` (compared without case), a
    /// host, and no whitespace: `https://example.com/a?b#c`. Code `invalid_url`.
    ///
    /// Forms give such a column a URL input, and JSON Schema export writes
    /// `"format": "uri"` with the same grammar as a `pattern`.
    public static func url(schemes: [String] = ["http", "https"]) -> Self { Self(.url(schemes: schemes)) }

    /// The value is a number (a string column must hold one) within the given bounds.
    ///
    /// Codes `not_a_number`, `not_an_integer`, `greater_than`,
    /// `greater_than_or_equal_to`, `less_than`, `less_than_or_equal_to`, `equal_to`,
    /// `not_in_range`. Contradictory bounds are a definition error.
    public static func numericality(
        onlyInteger: Bool = false, greaterThan: Double? = nil, greaterThanOrEqualTo: Double? = nil,
        lessThan: Double? = nil, lessThanOrEqualTo: Double? = nil, equalTo: Double? = nil,
        in range: ClosedRange<Double>? = nil
    ) -> Self {
        Self(
            .numericality(
                NumericBounds(
                    onlyInteger: onlyInteger, greaterThan: greaterThan, greaterThanOrEqualTo: greaterThanOrEqualTo,
                    lessThan: lessThan, lessThanOrEqualTo: lessThanOrEqualTo, equalTo: equalTo, range: range)))
    }

    /// The value is one of `values` (cast to the column's type when the validations are
    /// built). Code `inclusion`.
    public static func inclusion(in values: [ModelValue]) -> Self { Self(.inclusion(values)) }

    /// The value is none of `values`. Code `exclusion`.
    public static func exclusion(from values: [ModelValue]) -> Self { Self(.exclusion(values)) }

    /// No other stored record has this value (among records with the same values in the
    /// `scope` columns). Checked through the record's store with one `count` query; the
    /// record itself is excluded. `caseSensitive: false` folds ASCII letters (as SQLite's
    /// `LIKE`). Code `taken`.
    ///
    /// A check, not a guarantee under concurrent writers: declare the column
    /// `options: .unique` as well to have the adapter enforce it.
    public static func uniqueness(scope: [String] = [], caseSensitive: Bool = true) -> Self {
        Self(.uniqueness(scope: scope, caseSensitive: caseSensitive))
    }

    /// The value equals the column named `column` when that column is non-nil. Code
    /// `confirmation`.
    public static func confirmation(_ column: String) -> Self { Self(.confirmation(.column(column))) }

    /// The value equals the property at `keyPath` (typically an unstored
    /// `var passwordConfirmation: String?`) when that property is non-nil. Code
    /// `confirmation`.
    public static func confirmation<C: ModelValueConvertible>(_ keyPath: KeyPath<M, C?> & Sendable) -> Self {
        Self(
            .confirmation(
                .property { object in
                    guard let record = object as? M else { return .null }
                    return record[keyPath: keyPath]?.modelValue ?? .null
                }))
    }

    /// Uses the validator registered under `name` (see ``ColumnValidator``). An unknown name
    /// is a definition error.
    public static func validator(_ name: String) -> Self { Self(.named(name)) }

    /// Uses this validator.
    public static func validator(_ validator: some ColumnValidator) -> Self { Self(.validator(validator)) }

    /// Applies `rules` to every element of a typed array column. Each failing element is
    /// one error on the column carrying the element's ``ValidationError/index``
    /// (`"tags[2] can't be blank"`; `{index}` in message templates). Uniqueness and
    /// confirmation do not apply to elements.
    ///
    /// ```swift
    /// v.add(\.tags, .each(.presence, .length(...20)))
    /// v.add(\.emails, .each(.email.message("entry {index} is not an address")))
    /// ```
    public static func each(_ rules: ValidationRule<M, ModelValue>...) -> Self {
        Self(.each(rules.map { ElementRule(kind: $0.kind, message: $0.messageTemplate, allowsNil: $0.allowsNil) }))
    }

    /// A closure rule with its code, message and nil switch.
    static func custom(
        _ code: String, _ message: String?, _ allowNil: Bool, _ body: @escaping @Sendable (ModelValue, ModelObject) -> Bool
    ) -> Self {
        var rule = Self(.custom(code: code, check: body))
        rule.messageTemplate = message
        rule.allowsNil = allowNil
        return rule
    }
}

extension ValidationRule where Value: ModelValueConvertible {
    /// A custom rule: `check` returns whether the value is acceptable.
    ///
    /// ```swift
    /// v.add(\.age, .require { $0 >= 18 })
    /// v.add(\.code, .require("odd", message: "must be odd") { $0 % 2 == 1 })
    /// ```
    ///
    /// - Parameters:
    ///   - code: the error code (default `invalid`).
    ///   - message: the message (default: the template for `code`, or `"is invalid"`).
    ///   - allowNil: whether nil passes without calling `check` (default `true`).
    public static func require(
        _ code: String = "invalid", message: String? = nil, allowNil: Bool = true,
        _ check: @escaping @Sendable (Value) -> Bool
    ) -> Self {
        custom(code, message, allowNil) { value, _ in
            guard let typed = Value(modelValue: value) else { return false }
            return check(typed)
        }
    }

    /// A custom rule that also sees the record (for rules that compare columns).
    ///
    /// ```swift
    /// extension Event: Validatable {
    ///     static func validations(_ v: inout Validations<Event>) {
    ///         v.add(\.endsAt, .require { (end: Date, event: Event) in end > event.startsAt })
    ///     }
    /// }
    /// ```
    public static func require(
        _ code: String = "invalid", message: String? = nil, allowNil: Bool = true,
        _ check: @escaping @Sendable (Value, M) -> Bool
    ) -> Self {
        custom(code, message, allowNil) { value, object in
            guard let typed = Value(modelValue: value), let record = object as? M else { return false }
            return check(typed, record)
        }
    }
}

extension ValidationRule {
    /// A custom rule on an optional column, called with the unwrapped value (nil passes
    /// unless `allowNil` is `false`, in which case nil fails).
    ///
    /// ```swift
    /// v.add(\.nickname, .require { (nick: String) in !nick.contains(" ") })
    /// ```
    public static func require<Wrapped: ModelValueConvertible>(
        _ code: String = "invalid", message: String? = nil, allowNil: Bool = true,
        _ check: @escaping @Sendable (Wrapped) -> Bool
    ) -> Self where Value == Wrapped? {
        custom(code, message, allowNil) { value, _ in
            guard let typed = Wrapped(modelValue: value) else { return false }
            return check(typed)
        }
    }
}
