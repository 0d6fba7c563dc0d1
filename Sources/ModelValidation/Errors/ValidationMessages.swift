import Foundation

/// The message templates of the built-in rules, by code, and their process-wide overrides.
///
/// Templates may use `{count}`, `{unit}`, `{low}`, `{high}` and `{value}`. A rule's own
/// `.message(_:)` wins over these.
///
/// ```swift
/// ValidationMessages.setTemplate("must be filled in", for: "blank")
/// ValidationMessages.setTemplate(nil, for: "blank")     // back to "can't be blank"
/// ```
public enum ValidationMessages {
    /// The built-in templates.
    public static let defaults: [String: String] = [
        "blank": "can't be blank",
        "too_short": "is too short (minimum is {count} {unit})",
        "too_long": "is too long (maximum is {count} {unit})",
        "wrong_length": "is the wrong length (should be {count} {unit})",
        "invalid": "is invalid",
        "invalid_email": "is not a valid email address",
        "invalid_url": "is not a valid URL",
        "not_a_number": "is not a number",
        "not_an_integer": "must be an integer",
        "greater_than": "must be greater than {count}",
        "greater_than_or_equal_to": "must be greater than or equal to {count}",
        "less_than": "must be less than {count}",
        "less_than_or_equal_to": "must be less than or equal to {count}",
        "equal_to": "must be equal to {count}",
        "not_in_range": "must be between {low} and {high}",
        "inclusion": "is not included in the list",
        "exclusion": "is reserved",
        "taken": "has already been taken",
        "confirmation": "doesn't match its confirmation",
        "not_a_boolean": "must be yes or no",
        "not_a_date": "is not a valid date",
        "not_a_uuid": "is not a valid UUID",
        "not_in_form": "is not a field of this form",
        "required": "is required",
    ]

    /// The process's overrides, or a task's private ones (``withPrivateTemplates(_:)``).
    private static let processOverrides = Locked<[String: String]>([:])
    @TaskLocal private static var privateOverrides: Locked<[String: String]>?
    private static var overrides: Locked<[String: String]> { privateOverrides ?? processOverrides }

    /// Runs `body` with private overrides (none to start with): what ``setTemplate(_:for:)``
    /// sets inside it stays inside it and the tasks it starts. For tests, which run in
    /// parallel.
    package static func withPrivateTemplates<R>(_ body: () throws -> R) rethrows -> R {
        try $privateOverrides.withValue(Locked([:]), operation: body)
    }

    /// Replaces the template for `code` in this process (`nil` restores the default).
    public static func setTemplate(_ template: String?, for code: String) {
        overrides.withLock { $0[code] = template }
    }

    /// Removes every override.
    public static func resetTemplates() {
        overrides.withLock { $0 = [:] }
    }

    /// The template in effect for `code` (`"is invalid"` for codes without one).
    public static func template(for code: String) -> String {
        overrides.withLock { $0[code] } ?? defaults[code] ?? "is invalid"
    }

    /// Fills `{key}` placeholders.
    package static func render(_ template: String, _ details: [String: String]) -> String {
        guard template.contains("{") else { return template }
        var out = template
        for (key, value) in details { out = out.replacingOccurrences(of: "{\(key)}", with: value) }
        return out
    }
}
