/// A model's input form as plain data: a title, sections of rows, each row's input, its
/// current value as text, and hints taken from the model's validations.
///
/// Platform-neutral and `Codable`: render it with SwiftUI (`ModelFormsUI`), send it to a
/// web front end as JSON, or walk it in a command-line tool.
///
/// ```swift
/// let form = try todo.formDescriptor()
/// for section in form.sections {
///     for field in section.fields { print(field.label, field.kind, field.text) }
/// }
/// ```
public struct FormDescriptor: Codable, Sendable, Equatable {
    /// The form's title (the layout's, or the humanised model name).
    public var title: String
    /// The model's name.
    public var model: String
    /// The sections in declared order; none is empty.
    public var sections: [FormSection]

    /// A descriptor.
    public init(title: String, model: String, sections: [FormSection]) {
        self.title = title
        self.model = model
        self.sections = sections
    }

    /// Every row, section by section.
    public var fields: [FormField] { sections.flatMap(\.fields) }

    /// The row for a column, by stored name.
    public func field(_ key: String) -> FormField? {
        for section in sections { if let field = section.fields.first(where: { $0.key == key }) { return field } }
        return nil
    }

    /// Each row's current text by key: what a submitted form sends back to
    /// ``ModelProtocol/apply(formValues:context:store:)``.
    public var values: [String: String] {
        var values: [String: String] = [:]
        for field in fields { values[field.key] = field.text }
        return values
    }

    /// Sets a row's text (what an input does as the user types); false when no row has
    /// this key.
    @discardableResult
    public mutating func setText(_ text: String, for key: String) -> Bool {
        for s in sections.indices {
            if let f = sections[s].fields.firstIndex(where: { $0.key == key }) {
                sections[s].fields[f].text = text
                return true
            }
        }
        return false
    }
}

/// A titled group of rows.
public struct FormSection: Codable, Sendable, Equatable {
    /// The section's title, if it has one.
    public var title: String?
    /// The rows in declared order (then column order).
    public var fields: [FormField]

    /// A section.
    public init(title: String?, fields: [FormField]) {
        self.title = title
        self.fields = fields
    }
}

/// One row of a form: one column of the model.
public struct FormField: Codable, Sendable, Equatable {
    /// The column's stored name: the key to submit the value under.
    public var key: String
    /// The human label (`due_date` → "Due date", unless the layout names one).
    public var label: String
    /// The input to show.
    public var kind: FormInputKind
    /// The current value as form text (`""` for nil); see ``FormText``.
    public var text: String
    /// Whether the column can hold nil (a blank entry then means nil).
    public var isOptional: Bool
    /// A `presence` rule applies: the row must be filled in.
    public var isRequired: Bool
    /// Placeholder text for an empty input.
    public var placeholder: String?
    /// A line of help under the input.
    public var help: String?
    /// The choices of a picker, from an `inclusion` rule or the layout.
    public var choices: [FormChoice]
    /// How a picker shows its choices.
    public var pickerStyle: FormPickerStyle?
    /// Length limits from `length` rules (characters for text).
    public var minLength: Int?
    /// The longest text `length` rules allow.
    public var maxLength: Int?
    /// The smallest number `numericality` rules allow.
    public var minimum: Double?
    /// The largest number `numericality` rules allow.
    public var maximum: Double?
    /// The number must be greater than this.
    public var exclusiveMinimum: Double?
    /// The number must be less than this.
    public var exclusiveMaximum: Double?
    /// The `format` rules' regular expressions, each to match the whole text.
    public var patterns: [String]

    /// A row with the given key, label, kind and text, and no hints.
    public init(key: String, label: String, kind: FormInputKind, text: String = "", isOptional: Bool = false) {
        self.key = key
        self.label = label
        self.kind = kind
        self.text = text
        self.isOptional = isOptional
        isRequired = false
        choices = []
        patterns = []
    }
}
