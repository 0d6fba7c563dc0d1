import Foundation

/// One failed validation: which column, which rule (a stable ``code``) and a readable
/// ``message``.
///
/// ```swift
/// error.column        // "name"
/// error.code          // "too_short"
/// error.message       // "is too short (minimum is 2 characters)"
/// error.fullMessage   // "name is too short (minimum is 2 characters)"
/// ```
public struct ValidationError: Sendable, Equatable, CustomStringConvertible {
    /// The column's stored name, or `nil` for an error about the record as a whole.
    public let column: String?
    /// The rule's stable code (`"blank"`, `"too_short"`, `"taken"`, …); see
    /// `Docs/Validation.md` for the list.
    public let code: String
    /// The message without the column name (`"can't be blank"`).
    public let message: String
    /// The value that failed (for an element rule, the element).
    public let value: ModelValue
    /// For a rule on the elements of an array column (``ValidationRule/each(_:)``), the
    /// failing element's position; nil otherwise.
    public let index: Int?

    /// Creates an error.
    public init(column: String?, code: String, message: String, value: ModelValue = .null, index: Int? = nil) {
        self.column = column
        self.code = code
        self.message = message
        self.value = value
        self.index = index
    }

    /// The message prefixed with the humanised column name (`"due date can't be blank"`,
    /// `"tags[2] can't be blank"` for an element); just the message for record-level errors.
    public var fullMessage: String {
        guard let column else { return message }
        return column.replacingOccurrences(of: "_", with: " ") + (index.map { "[\($0)]" } ?? "") + " " + message
    }

    public var description: String { fullMessage }
}

/// The errors of one validation run, in rule order.
///
/// ```swift
/// let errors = try user.validate()
/// errors.isEmpty                 // false
/// errors["name"].map(\.code)     // ["blank"]
/// errors.messages(for: "name")   // ["can't be blank"]
/// errors.fullMessages            // ["name can't be blank", "email is not a valid email address"]
/// ```
public struct ValidationErrors: RandomAccessCollection, Sendable, Equatable, CustomStringConvertible {
    /// Every error, in the order the rules ran.
    public private(set) var all: [ValidationError]

    /// No errors.
    public init() { all = [] }

    /// These errors.
    public init(_ errors: [ValidationError]) { all = errors }

    public var startIndex: Int { all.startIndex }
    public var endIndex: Int { all.endIndex }
    public subscript(position: Int) -> ValidationError { all[position] }

    /// The errors on one column (stored name).
    public subscript(column: String) -> [ValidationError] { all.filter { $0.column == column } }

    /// The messages (without the column name) on one column.
    public func messages(for column: String) -> [String] { self[column].map(\.message) }

    /// The rule codes that failed on one column.
    public func codes(for column: String) -> [String] { self[column].map(\.code) }

    /// Errors about the record as a whole (added by record-level checks without a column).
    public var recordErrors: [ValidationError] { all.filter { $0.column == nil } }

    /// Every error as a sentence naming its column.
    public var fullMessages: [String] { all.map(\.fullMessage) }

    /// The columns with at least one error, in first-error order.
    public var columns: [String] {
        var seen: Set<String> = []
        return all.compactMap { $0.column }.filter { seen.insert($0).inserted }
    }

    /// Adds an error (from a record-level check).
    ///
    /// - Parameters:
    ///   - column: the column's stored name, or `nil` for the record as a whole.
    ///   - code: a stable code callers can test for.
    ///   - message: the message without the column name; defaults to the template for
    ///     `code` (see ``ValidationMessages``) or `"is invalid"`.
    public mutating func add(_ column: String?, code: String = "invalid", message: String? = nil, value: ModelValue = .null) {
        let text = message ?? ValidationMessages.render(ValidationMessages.template(for: code), [:])
        all.append(ValidationError(column: column, code: code, message: text, value: value))
    }

    /// Adds an error.
    public mutating func append(_ error: ValidationError) { all.append(error) }

    public var description: String { all.isEmpty ? "no errors" : fullMessages.joined(separator: "; ") }
}
