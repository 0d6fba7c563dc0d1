import Foundation

extension ModelProtocol {
    /// Sets submitted form values on the record, then validates it.
    ///
    /// ```swift
    /// let errors = try todo.apply(formValues: ["name": "walk", "due_date": "2012-09-15"])
    /// if errors.isEmpty { try todo.save() } else { show(errors.messages(for: "due_date")) }
    /// ```
    ///
    /// Each value is cast to its column with the casting rules (`Docs/Casting.md`), with
    /// one form rule on top: blank text (empty or only whitespace) means nil for an optional
    /// column and for any column that does not hold text (then the declared default, for a
    /// non-optional column that has one; a `required` error otherwise). A `.date` row given
    /// the day its stored date already falls on (UTC) keeps the stored date, time of day
    /// included, so a form submitted unchanged changes nothing. Non-optional text
    /// columns keep the text, so `presence` reports it. Keys that are not rows of the record's form (``formDescriptor(context:)``),
    /// such as the id, timestamps or hidden columns, are refused: a form cannot set what
    /// it does not show.
    ///
    /// User input never throws. Every refused key and every value that does not cast is
    /// reported, keyed by field, and then **nothing is set**. Otherwise every value is set
    /// and the record's rules run in `context` (`.create` for a new record, `.update`
    /// otherwise); their errors are returned.
    ///
    /// - Returns: the field errors (empty when the record took the values and is valid).
    /// - Throws: only for programming and store errors: ``FormDefinitionError``,
    ///   `ValidationDefinitionError`, `ModelError.cancelled` from `beforeValidation`, and
    ///   store errors from uniqueness rules.
    @discardableResult
    public func apply(
        formValues: [String: ModelValue], context: ValidationContext? = nil, store: (any PersistenceAdapter)? = nil
    ) throws -> ValidationErrors {
        let context = context ?? (isNew ? .create : .update)
        let rows = try FormPlan(Self.self, context: context).rowsByKey
        var errors = ValidationErrors()
        var cast: [String: ModelValue] = [:]
        for (key, value) in formValues.sorted(by: { $0.key < $1.key }) {
            guard let row = rows[key] else {
                errors.append(Self.fieldError(key, code: "not_in_form", value: value))
                continue
            }
            if row.kind == .date || row.kind == .dateTime, showsStoredDate(value, at: row.slot, kind: row.kind) {
                cast[key] = _value(at: row.slot)
                continue
            }
            do {
                cast[key] = try castForColumn(Self.formValue(value, for: row.column), at: row.slot)
            } catch {
                errors.append(Self.fieldError(key, code: Self.castCode(error, row.column), value: value))
            }
        }
        guard errors.isEmpty else { return errors }
        // Every value cast above, so this cannot fail on input; it sets all or nothing.
        try set(cast)
        guard let validatable = self as? any Validatable else { return ValidationErrors() }
        return try validatable.validate(in: context, store: store)
    }

    /// ``apply(formValues:context:store:)`` for text submissions (web forms, a terminal).
    @discardableResult
    public func apply(
        formValues: [String: String], context: ValidationContext? = nil, store: (any PersistenceAdapter)? = nil
    ) throws -> ValidationErrors {
        try apply(formValues: formValues.mapValues { ModelValue.string($0) }, context: context, store: store)
    }

    /// Whether `value`, submitted to a `.date` or `.dateTime` row, is the text the row shows
    /// for the stored date: an unchanged field keeps the stored value. A `.date` row shows
    /// only the day (UTC), so submitting it back keeps the time of day instead of moving the
    /// date to midnight; a `.dateTime` row shows microseconds, so submitting it back keeps
    /// the digits below them (any `Date()` has some) instead of marking the record dirty.
    private func showsStoredDate(_ value: ModelValue, at slot: Int, kind: FormInputKind) -> Bool {
        guard case .string(let text) = value, case .date(let stored) = _value(at: slot) else { return false }
        return text.trimmingCharacters(in: .whitespaces) == FormText.text(for: .date(stored), kind: kind)
    }

    /// Blank text means nil for optional columns and for columns that do not hold text.
    private static func formValue(_ value: ModelValue, for column: ColumnDefinition) -> ModelValue {
        guard case .string(let s) = value, s.allSatisfy(\.isWhitespace),
            column.isOptional || (column.type != .string && column.type != .text)
        else { return value }
        return .null
    }

    private static func castCode(_ error: CastError, _ column: ColumnDefinition) -> String {
        if error.value.isNull { return "required" }
        switch column.type {
        case .int: return "not_an_integer"
        case .double: return "not_a_number"
        case .bool: return "not_a_boolean"
        case .date: return "not_a_date"
        case .uuid: return "not_a_uuid"
        case .string, .text, .data, .array, .dictionary: return "invalid"
        }
    }

    private static func fieldError(_ key: String, code: String, value: ModelValue) -> ValidationError {
        ValidationError(column: key, code: code, message: ValidationMessages.template(for: code), value: value)
    }
}
