
/// The process-wide cache of built validations, one plan per model type.
enum ValidationPlans {
    private static let plans = Locked<[ObjectIdentifier: AnyObject & Sendable]>([:])

    /// The model's plan, built on first use; a malformed declaration throws every time.
    static func plan<M: Validatable>(for type: M.Type) throws(ValidationDefinitionError) -> ValidationPlan<M> {
        let key = ObjectIdentifier(type)
        let plan: ValidationPlan<M>
        if let cached = plans.withLock({ $0[key] }) as? ValidationPlan<M> {
            plan = cached
        } else {
            // Built outside the lock (it runs the model's code); the first plan stored wins.
            var declaration = Validations<M>()
            M.validations(&declaration)
            let built = declaration.plan()
            plan = plans.withLock { cache in
                if let existing = cache[key] as? ValidationPlan<M> { return existing }
                cache[key] = built
                return built
            }
        }
        if let problem = plan.problem { throw problem }
        return plan
    }
}

extension ValidationPlan where M: Validatable {
    /// Runs the rules (only those of column `slot`, when given) that apply in `context`
    /// over `values`, then the record-level checks (full runs only).
    func run(
        _ record: M, values: [ModelValue], context: ValidationContext, only slot: Int? = nil,
        store: () throws -> any PersistenceAdapter
    ) throws -> ValidationErrors {
        let schema = record.recordSchema
        // (ModelValue is nil-literal convertible: spell out the optional.)
        let id: ModelValue? = record.isNew ? Optional.none : .some(record.__baseline[0])
        var errors = ValidationErrors()
        for rule in rules {
            if let slot, rule.slot != slot { continue }
            if let contexts = rule.contexts, !contexts.contains(context) { continue }
            let value = values[rule.slot]
            if value.isNull, rule.allowsNil { continue }
            guard
                let failure = try rule.evaluate(
                    value, row: values, record: record, id: id, schema: schema, store: store)
            else { continue }
            var details = failure.details
            if case .string(let text) = value { details["value"] = text } else { details["value"] = value.description }
            let template = rule.message ?? failure.template ?? ValidationMessages.template(for: failure.code)
            errors.append(
                ValidationError(
                    column: rule.column.name, code: failure.code, message: ValidationMessages.render(template, details),
                    value: value))
        }
        if slot == nil {
            for check in checks {
                if let contexts = check.contexts, !contexts.contains(context) { continue }
                check.body(record, &errors)
            }
        }
        return errors
    }
}
