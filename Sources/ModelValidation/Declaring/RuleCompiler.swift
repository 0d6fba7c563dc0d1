/// Checks a declared rule against its column and turns it into what the runner evaluates.
struct RuleCompiler {
    struct Failure: Error { let reason: String }

    let schema: ModelSchema
    let column: ColumnDefinition

    private static let textTypes: Set<ColumnType> = [.string, .text]

    func compile(_ kind: RuleKind) throws(Failure) -> CompiledRule.Check {
        switch kind {
        case .presence:
            return .presence
        case .length(let min, let max, let exact):
            let unit: String
            switch column.type {
            case .string, .text: unit = "character"
            case .array, .dictionary: unit = "item"
            case .data: unit = "byte"
            default: throw fits("strings, arrays, dictionaries and data")
            }
            if let min, min < 0 { throw Failure(reason: "the minimum length \(min) is negative") }
            if let max, max < 0 { throw Failure(reason: "the maximum length \(max) is negative (the range is empty)") }
            if let min, let max, min > max { throw Failure(reason: "the range is empty (minimum \(min) > maximum \(max))") }
            return .length(min: min, max: max, exact: exact, unit: unit)
        case .format(let source):
            guard Self.textTypes.contains(column.type) else { throw fits("string columns") }
            guard !source.isEmpty else { throw Failure(reason: "the pattern is empty") }
            do {
                return .format(try CompiledRule.Pattern(source))
            } catch {
                throw Failure(reason: "\"\(source)\" is not a valid regular expression")
            }
        case .email:
            guard Self.textTypes.contains(column.type) else { throw fits("string columns") }
            return .email
        case .url(let schemes):
            guard Self.textTypes.contains(column.type) else { throw fits("string columns") }
            return .url(try URLAddress(schemes: schemes))
        case .numericality(let bounds):
            guard [.int, .double, .string, .text].contains(column.type) else { throw fits("number and string columns") }
            if let contradiction = bounds.contradiction { throw Failure(reason: contradiction) }
            return .numericality(bounds)
        case .inclusion(let values):
            guard !values.isEmpty else { throw Failure(reason: "the set of allowed values is empty") }
            return .inclusion(try cast(values))
        case .exclusion(let values):
            guard !values.isEmpty else { throw Failure(reason: "the set of excluded values is empty") }
            return .exclusion(try cast(values))
        case .uniqueness(let scope, let caseSensitive):
            if !caseSensitive, !Self.textTypes.contains(column.type) {
                throw Failure(reason: "caseSensitive: false needs a string column, not \(column.type)")
            }
            var slots: [Int] = []
            for name in scope {
                guard let slot = schema.index(ofColumn: name) else { throw unknown(name, "scope") }
                guard slot != column.index else { throw Failure(reason: "the scope names the validated column itself") }
                slots.append(slot)
            }
            return .uniqueness(scope: slots, caseSensitive: caseSensitive)
        case .confirmation(.column(let name)):
            guard let slot = schema.index(ofColumn: name) else { throw unknown(name, "confirmation") }
            guard slot != column.index else { throw Failure(reason: "a column cannot confirm itself") }
            return .confirmation(slot: slot)
        case .confirmation(.property(let read)):
            return .confirmationProperty(read)
        case .custom(let code, let body):
            guard !code.isEmpty else { throw Failure(reason: "the error code is empty") }
            return .custom(code: code, body: body)
        case .named(let name):
            guard let validator = Validators.named(name) else {
                throw Failure(reason: "no validator is registered as \"\(name)\" (register it with Validators.register)")
            }
            return try accept(validator)
        case .validator(let validator):
            return try accept(validator)
        case .each(let rules):
            guard column.type == .array else { throw fits("array columns") }
            guard let elementType = column.elementType else {
                throw Failure(reason: "each(…) needs a typed array ([String], [Int]…), not \(column.castTarget)")
            }
            guard !rules.isEmpty else { throw Failure(reason: "each(…) needs at least one rule") }
            let element = ColumnDefinition(
                name: column.name, propertyName: column.propertyName, type: elementType, isOptional: true, elementType: nil,
                options: [], defaultValue: .none, index: column.index, accepts: { _ in true })
            let compiler = RuleCompiler(schema: schema, column: element)
            var checks: [(check: CompiledRule.Check, message: String?, allowsNil: Bool)] = []
            for rule in rules {
                switch rule.kind {
                case .uniqueness, .confirmation, .each:
                    throw Failure(reason: "\(rule.kind.name) cannot apply to each element")
                default: checks.append((try compiler.compile(rule.kind), rule.message, rule.allowsNil))
                }
            }
            return .each(checks)
        }
    }

    private func accept(_ validator: any ColumnValidator) throws(Failure) -> CompiledRule.Check {
        guard validator.accepts(column.type) else {
            throw Failure(reason: "validator \"\(validator.code)\" does not apply to \(column.type) columns")
        }
        return .validator(validator)
    }

    private func cast(_ values: [ModelValue]) throws(Failure) -> [ModelValue] {
        var out: [ModelValue] = []
        for value in values {
            do {
                out.append(try Caster.cast(value, to: column.castTarget))
            } catch {
                throw Failure(reason: "\(value.debugDescription) cannot be a value of the \(column.castTarget) column (\(error.reason))")
            }
        }
        return out
    }

    private func fits(_ what: String) -> Failure {
        Failure(reason: "applies to \(what), not to \(column.name) (\(column.type))")
    }

    private func unknown(_ name: String, _ role: String) -> Failure {
        Failure(
            reason: "the \(role) column \"\(name)\" does not exist; columns: "
                + schema.columns.map(\.name).joined(separator: ", "))
    }
}
