extension ModelProtocol {
    /// This record's form: the model's layout (``FormDescribing``) or the default one,
    /// with the record's current values and the hints of the rules that apply in
    /// `context` (`.create` for a new record, `.update` for a stored one, by default).
    ///
    /// ```swift
    /// let form = try todo.formDescriptor()
    /// form.field("due_date")?.kind      // .date
    /// form.field("due_date")?.label     // "Due date"
    /// ```
    ///
    /// - Throws: ``FormDefinitionError`` for a malformed layout,
    ///   `ValidationDefinitionError` for malformed rules, `SchemaError`.
    public func formDescriptor(context: ValidationContext? = nil) throws -> FormDescriptor {
        let plan = try FormPlan(Self.self, context: context ?? (isNew ? .create : .update))
        _ = recordSchema  // a new record attaches its schema (and default row) on first use
        let values = _currentValues
        return FormDescriptor(
            title: plan.title, model: Self.schema.modelName,
            sections: plan.sections.map { section in
                FormSection(title: section.title, fields: section.rows.map { Self.field($0, value: values.indices.contains($0.slot) ? values[$0.slot] : .null) })
            })
    }

    /// The form of a new record (its defaults as values).
    public static func formDescriptor() throws -> FormDescriptor {
        try Self().formDescriptor(context: .create)
    }

    private static func field(_ row: FormPlan.Row, value: ModelValue) -> FormField {
        let column = row.column, needs = row.requirements
        var field = FormField(
            key: column.name, label: row.options.label ?? Inflector.shared.humanize(column.name), kind: row.kind,
            text: FormText.text(for: value, kind: row.kind), isOptional: column.isOptional)
        field.isRequired = needs.isRequired
        field.placeholder = row.options.placeholder ?? defaultPlaceholder(row.kind)
        field.help = row.options.help
        field.pickerStyle = row.kind == .picker ? (row.options.pickerStyle ?? .automatic) : nil
        if row.kind == .picker {
            let values = row.options.choices ?? needs.allowedValues ?? []
            field.choices = values.map { choice in
                // Declared choices are cast like a submission, so their text casts back.
                let cast = (try? Caster.cast(choice, to: column.castTarget)) ?? choice
                let text = FormText.text(for: cast, kind: row.kind)
                return FormChoice(text: text, label: label(for: cast, text: text))
            }
        }
        field.minLength = needs.minLength
        field.maxLength = needs.maxLength
        field.minimum = needs.minimum
        field.maximum = needs.maximum
        field.exclusiveMinimum = needs.exclusiveMinimum
        field.exclusiveMaximum = needs.exclusiveMaximum
        field.patterns = needs.patterns
        return field
    }

    private static func label(for value: ModelValue, text: String) -> String {
        switch value {
        case .bool(let b): b ? "Yes" : "No"
        case .null: "None"
        default: text
        }
    }

    private static func defaultPlaceholder(_ kind: FormInputKind) -> String? {
        switch kind {
        case .date: "YYYY-MM-DD"
        case .dateTime: "YYYY-MM-DDThh:mm:ssZ"
        case .email: "name@example.com"
        case .url: "https://"
        default: nil
        }
    }
}
