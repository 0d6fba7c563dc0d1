/// What forms and JSON Schema export both read of a model: its rules per column, and the
/// columns the library stamps itself.
enum ModelInputs {
    /// One entry per column, in column order: the rules that apply in `context`, or empty
    /// requirements for a model without rules.
    static func requirements<M: ModelProtocol>(_ type: M.Type, context: ValidationContext) throws
        -> [ColumnRequirements]
    {
        if let validatable = M.self as? any Validatable.Type { return try validatable.requirements(in: context) }
        return M.schema.columns.map { ColumnRequirements(column: $0.name) }
    }

    /// The id, the `<name>_set_at`/`<name>_changed_at` stamps and, with `timestamps`,
    /// `created_at`/`updated_at`: columns no input sets.
    static func managedSlots(_ schema: ModelSchema, timestamps: Bool) -> Set<Int> {
        var slots: Set<Int> = [0]
        for stamps in schema.fieldTimestamps { slots.formUnion([stamps.setAt, stamps.changedAt]) }
        if timestamps { slots.formUnion([schema.createdAtIndex, schema.updatedAtIndex].compactMap { $0 }) }
        return slots
    }
}
