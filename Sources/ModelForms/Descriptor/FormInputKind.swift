/// The input a form row asks for.
///
/// Each column type has a default (see ``FormField/kind``); a ``FormLayout`` can choose
/// another that fits the column.
public enum FormInputKind: String, Codable, Sendable, CaseIterable {
    /// One line of text.
    case text
    /// Several lines of text (the default for `.text` columns).
    case multiline
    /// A whole number.
    case integer
    /// A number with a fraction.
    case decimal
    /// On or off (a switch or checkbox).
    case toggle
    /// A calendar date (`yyyy-MM-dd`, UTC midnight). Applying the day a stored date
    /// already falls on keeps that date, time of day included.
    case date
    /// A date and time (ISO 8601 in UTC).
    case dateTime
    /// One of ``FormField/choices``.
    case picker
    /// An email address (from an `email` rule).
    case email
    /// A URL (from a `url` rule).
    case url
    /// Text that is not shown as typed (declared in the layout).
    case secure

    /// Whether this input can edit a column of `type`.
    package func fits(_ type: ColumnType) -> Bool {
        switch self {
        case .text, .multiline, .picker: true
        case .secure, .email, .url: type == .string || type == .text
        case .integer: type == .int
        case .decimal: type == .double || type == .int
        case .toggle: type == .bool
        case .date, .dateTime: type == .date
        }
    }
}

/// How a picker shows its choices. Renderers map it to what the platform has and fall
/// back to their own default.
public enum FormPickerStyle: String, Codable, Sendable, CaseIterable {
    /// The renderer's choice.
    case automatic
    /// A pop-up menu.
    case menu
    /// A segmented control, for a few short choices.
    case segmented
    /// A wheel.
    case wheel
    /// A list of radio buttons.
    case radio
}

/// One choice of a picker: the text submitted when it is chosen and the label shown.
public struct FormChoice: Codable, Sendable, Equatable {
    /// The choice's value as form text (what ``ModelProtocol/apply(formValues:context:store:)`` casts).
    public var text: String
    /// What the user sees.
    public var label: String

    /// A choice.
    public init(text: String, label: String) {
        self.text = text
        self.label = label
    }
}
