/// A model's form resolved against its schema and rules: which columns are rows, in which
/// section, with which input. Built per call (forms are not a hot path).
struct FormPlan {
    struct Row {
        let slot: Int
        let column: ColumnDefinition
        let kind: FormInputKind
        let options: FieldOptions
        let requirements: ColumnRequirements
    }

    let title: String
    let sections: [(title: String?, rows: [Row])]

    /// The rows by column name: the keys a submission may set.
    var rowsByKey: [String: Row] {
        var rows: [String: Row] = [:]
        for section in sections { for row in section.rows { rows[row.column.name] = row } }
        return rows
    }

    init<M: ModelProtocol>(_ type: M.Type, context: ValidationContext) throws {
        let schema = M.schema
        try schema.validate()
        var layout = FormLayout<M>()
        if let describing = M.self as? any FormDescribing.Type { Self.declare(describing, into: &layout) }
        let requirements = try ModelInputs.requirements(M.self, context: context)

        // Columns the form never shows: the id, stamps, and timestamps unless asked for.
        let excluded = ModelInputs.managedSlots(schema, timestamps: !layout.includesTimestamps)

        var problems = layout.problems
        var sections = layout.sections
        let placed = Set(sections.flatMap(\.slots))
        for slot in placed where excluded.contains(slot) {  // (the layout refuses the id itself)
            problems.append("\"\(schema.columns[slot].name)\" is a timestamp column (set includesTimestamps to show it)")
        }
        for (slot, column) in schema.columns.enumerated()
        where !placed.contains(slot) && !excluded.contains(slot) && !layout.hidden.contains(slot)
            && Self.hasDefaultInput(column.type)
        {
            sections[0].slots.append(slot)
        }

        var resolved: [(title: String?, rows: [Row])] = []
        for section in sections {
            var rows: [Row] = []
            for slot in section.slots {  // (excluded columns placed by the layout were reported above)
                let column = schema.columns[slot]
                let options = layout.options[slot] ?? FieldOptions()
                let needs = requirements[slot]
                let kind = options.kind ?? Self.defaultKind(column, needs, hasChoices: options.choices != nil)
                if !kind.fits(column.type) {
                    problems.append("\(kind) input cannot edit \"\(column.name)\" (\(column.castTarget))")
                }
                if kind == .picker, options.choices == nil, needs.allowedValues == nil {
                    problems.append("the picker for \"\(column.name)\" has no choices (declare choices or an inclusion rule)")
                }
                rows.append(Row(slot: slot, column: column, kind: kind, options: options, requirements: needs))
            }
            if !rows.isEmpty { resolved.append((section.title, rows)) }
        }
        if !problems.isEmpty { throw FormDefinitionError(model: schema.modelName, problems: problems) }
        title = layout.title ?? Inflector.shared.humanize(schema.modelName)
        self.sections = resolved
    }

    private static func declare<D: FormDescribing, M: ModelProtocol>(_ type: D.Type, into layout: inout FormLayout<M>) {
        guard var typed = layout as? FormLayout<D> else { return }
        D.form(&typed)
        if let back = typed as? FormLayout<M> { layout = back }
    }

    /// Array, dictionary and data columns have no single input, so only a layout adds them.
    static func hasDefaultInput(_ type: ColumnType) -> Bool {
        ![.array, .dictionary, .data].contains(type)
    }

    /// The input a column gets unless the layout names one.
    static func defaultKind(_ column: ColumnDefinition, _ needs: ColumnRequirements, hasChoices: Bool) -> FormInputKind {
        if hasChoices || needs.allowedValues != nil { return .picker }
        switch column.type {
        case .string: return needs.isEmail ? .email : needs.urlSchemes != nil ? .url : .text
        case .text: return needs.isEmail ? .email : needs.urlSchemes != nil ? .url : .multiline
        case .int: return .integer
        case .double: return .decimal
        case .bool: return .toggle
        case .date:
            let name = column.name
            return name.hasSuffix("_at") || name.hasSuffix("_time") ? .dateTime : .date
        case .uuid, .data, .array, .dictionary: return .text
        }
    }
}
