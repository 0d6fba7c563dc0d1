
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
        count: (StoreQuery) throws -> Int
    ) throws -> ValidationErrors {
        let schema = record.recordSchema
        // (ModelValue is nil-literal convertible: spell out the optional.)
        let id: ModelValue? = record.isNew ? Optional.none : .some(record.__baselineID)
        var errors = ValidationErrors()
        for rule in rules {
            if let slot, rule.slot != slot { continue }
            if let contexts = rule.contexts, !contexts.contains(context) { continue }
            let value = values[rule.slot]
            if value.isNull, rule.allowsNil { continue }
            if case .each(let checks) = rule.check {
                try appendElementErrors(
                    checks, rule, value, values: values, record: record, id: id, schema: schema, count: count, into: &errors)
                continue
            }
            guard
                let failure = try rule.evaluate(
                    value, row: values, record: record, id: id, schema: schema, count: count)
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

extension ValidationPlan where M: Validatable {
    /// The store queries a full run over `values` in `context` asks, in the order it asks
    /// them (uniqueness rules, elements of `each` included): what a validation's steps
    /// count before the rules run once.
    func storeQueries(_ record: M, values: [ModelValue], context: ValidationContext) -> [StoreQuery] {
        guard readsStore else { return [] }
        let schema = record.recordSchema
        let id: ModelValue? = record.isNew ? Optional.none : .some(record.__baselineID)
        var queries: [StoreQuery] = []
        for rule in rules {
            if let contexts = rule.contexts, !contexts.contains(context) { continue }
            let value = values[rule.slot]
            if value.isNull, rule.allowsNil { continue }
            guard case .each(let checks) = rule.check else {
                if let query = rule.storeQuery(value, row: values, id: id, schema: schema) { queries.append(query) }
                continue
            }
            guard case .array(let elements) = value else { continue }
            for element in elements {
                for inner in checks where !(element.isNull && inner.allowsNil) {
                    let elementRule = CompiledRule(
                        slot: rule.slot, column: rule.column, check: inner.check, message: inner.message, contexts: nil,
                        allowsNil: inner.allowsNil)
                    if let query = elementRule.storeQuery(element, row: values, id: id, schema: schema) { queries.append(query) }
                }
            }
        }
        return queries
    }
}

extension ValidationPlan {
    /// Runs ``ValidationRule/each(_:)``'s rules on every element of an array value; each
    /// failure is an error on the column with the element's ``ValidationError/index``.
    func appendElementErrors(
        _ checks: [(check: CompiledRule.Check, message: String?, allowsNil: Bool)], _ rule: CompiledRule, _ value: ModelValue,
        values: [ModelValue], record: ModelObject, id: ModelValue?, schema: ModelSchema,
        count: (StoreQuery) throws -> Int, into errors: inout ValidationErrors
    ) throws {
        guard case .array(let elements) = value else { return }
        for (k, element) in elements.enumerated() {
            for inner in checks {
                if element.isNull, inner.allowsNil { continue }
                let elementRule = CompiledRule(
                    slot: rule.slot, column: rule.column, check: inner.check, message: inner.message, contexts: nil,
                    allowsNil: inner.allowsNil)
                guard
                    let failure = try elementRule.evaluate(
                        element, row: values, record: record, id: id, schema: schema, count: count)
                else { continue }
                var details = failure.details
                details["index"] = String(k)
                if case .string(let text) = element { details["value"] = text } else { details["value"] = element.description }
                let template = inner.message ?? rule.message ?? failure.template ?? ValidationMessages.template(for: failure.code)
                errors.append(
                    ValidationError(
                        column: rule.column.name, code: failure.code, message: ValidationMessages.render(template, details),
                        value: element, index: k))
            }
        }
    }
}
