/// The rules of one model, declared in ``Validatable/validations(_:)``.
///
/// ```swift
/// extension User: Validatable {
///     static func validations(_ v: inout Validations<User>) {
///         v.add(\.name, .presence, .length(2...50))
///         v.add(\.email, .email, .uniqueness(caseSensitive: false))
///         v.add("age", .numericality(onlyInteger: true, greaterThanOrEqualTo: 0))
///         v.add(\.password, .presence.on(.create), .confirmation(\.passwordConfirmation))
///         v.validate { user, errors in
///             if user.endsAt < user.startsAt { errors.add("ends_at", code: "before_start", message: "must be after the start") }
///         }
///     }
/// }
/// ```
///
/// Each rule is checked against its column as it is added (known column, a type the rule
/// fits, a non-empty range or set, consistent bounds); problems are reported as a
/// ``ValidationDefinitionError`` by every validation of the model.
public struct Validations<M: Validatable> {
    let schema: ModelSchema
    private let prototype: M
    private(set) var rules: [CompiledRule] = []
    private(set) var checks: [RecordCheck<M>] = []
    private(set) var problems: [ValidationDefinitionError] = []

    init() {
        schema = M.schema
        prototype = M()
    }

    /// Adds rules to the column behind `keyPath` (an `@Column` property).
    public mutating func add<V>(_ keyPath: KeyPath<M, V>, _ rules: ValidationRule<M, V>...) {
        let slot: Int
        do {
            slot = try prototype.slot(of: keyPath)
        } catch {
            problem(column: "\(keyPath)", rule: "add", "the key path is not an @Column property: \(error.message)")
            return
        }
        compile(rules, at: slot)
    }

    /// Adds rules to the column with this stored name.
    public mutating func add(_ column: String, _ rules: ValidationRule<M, ModelValue>...) {
        guard let slot = schema.index(ofColumn: column) else {
            problem(
                column: column, rule: "add",
                "no column named \"\(column)\"; columns: " + schema.columns.map(\.name).joined(separator: ", "))
            return
        }
        compile(rules, at: slot)
    }

    /// Adds a record-level check, for rules that span columns; it reports failures with
    /// ``ValidationErrors/add(_:code:message:value:)``. With contexts, it runs only in those.
    public mutating func validate(
        on contexts: [ValidationContext] = [], _ check: @escaping @Sendable (M, inout ValidationErrors) -> Void
    ) {
        checks.append(RecordCheck(contexts: contexts.isEmpty ? nil : Set(contexts), body: check))
    }

    private mutating func compile<V>(_ list: [ValidationRule<M, V>], at slot: Int) {
        let column = schema.columns[slot]
        if list.isEmpty { problem(column: column.name, rule: "add", "no rules given") }
        for rule in list {
            if let contexts = rule.contexts, contexts.isEmpty {
                problem(column: column.name, rule: rule.kind.name, "`.on()` names no context, so the rule would never run")
                continue
            }
            do {
                let check = try RuleCompiler(schema: schema, column: column).compile(rule.kind)
                rules.append(
                    CompiledRule(
                        slot: slot, column: column, check: check, message: rule.messageTemplate, contexts: rule.contexts,
                        allowsNil: rule.allowsNil))
            } catch {
                problem(column: column.name, rule: rule.kind.name, error.reason)
            }
        }
    }

    private mutating func problem(column: String?, rule: String, _ reason: String) {
        problems.append(ValidationDefinitionError(model: schema.modelName, column: column, rule: rule, reason: reason))
    }

    func plan() -> ValidationPlan<M> {
        guard var first = problems.first else { return ValidationPlan(rules: rules, checks: checks, problem: nil) }
        if problems.count > 1 {
            first = ValidationDefinitionError(
                model: first.model, column: first.column, rule: first.rule,
                reason: first.reason + " (and \(problems.count - 1) more: "
                    + problems.dropFirst().map(\.description).joined(separator: "; ") + ")")
        }
        return ValidationPlan(rules: rules, checks: checks, problem: first)
    }
}
