import Foundation
import ModelSerialization

/// The keywords of one column's property schema.
struct JSONSchemaProperty {
    let column: ColumnDefinition
    let needs: ColumnRequirements
    let dates: JSONDateStrategy

    var keywords: [String: ModelValue] {
        var k = Self.typeKeywords(column.type, element: column.elementType, dates: dates)
        if column.type == .double, needs.integerOnly { k["type"] = "integer" }
        k["title"] = .string(Inflector.shared.humanize(column.name))
        let nullable = column.isOptional && !needs.rejectsNil
        if nullable, let type = k["type"] { k["type"] = .array([type, "null"]) }
        addLengths(&k)
        addNumbers(&k)
        addPatterns(&k)
        if let allowed = needs.allowedValues {
            k["enum"] = .array(allowed.compactMap(json) + (nullable ? [.null] : []))
        }
        if !needs.excludedValues.isEmpty {
            k["not"] = .dictionary(["enum": .array(needs.excludedValues.compactMap(json))])
        }
        return k
    }

    /// A value in the JSON form the documents use (nil when it has none, like NaN).
    private func json(_ value: ModelValue) -> ModelValue? {
        try? JSONForms.encode(value, dates: dates)
    }

    private static func typeKeywords(_ type: ColumnType, element: ColumnType?, dates: JSONDateStrategy) -> [String: ModelValue] {
        switch type {
        case .string, .text: return ["type": "string"]
        case .bool: return ["type": "boolean"]
        case .int: return ["type": "integer"]
        case .double: return ["type": "number"]
        case .uuid: return ["type": "string", "format": "uuid"]
        case .data: return ["type": "string", "contentEncoding": "base64"]
        case .date:
            switch dates {
            case .iso8601: return ["type": "string", "format": "date-time"]
            case .secondsSince1970: return ["type": "number"]
            case .millisecondsSince1970: return ["type": "integer"]
            }
        case .array:
            var k: [String: ModelValue] = ["type": "array"]
            if let element { k["items"] = .dictionary(typeKeywords(element, element: nil, dates: dates)) }
            return k
        case .dictionary:
            var k: [String: ModelValue] = ["type": "object"]
            if let element { k["additionalProperties"] = .dictionary(typeKeywords(element, element: nil, dates: dates)) }
            return k
        }
    }

    private func addLengths(_ k: inout [String: ModelValue]) {
        var low = needs.minLength, high = needs.maxLength
        if needs.isRequired { low = max(low ?? 1, 1) }
        let names: (String, String)
        switch column.type {
        case .string, .text: names = ("minLength", "maxLength")
        case .array: names = ("minItems", "maxItems")
        case .dictionary: names = ("minProperties", "maxProperties")
        case .data:
            // A length in bytes has no keyword for base64 text; presence still means non-empty.
            if needs.isRequired { k["minLength"] = .int(1) }
            return
        default: return
        }
        if let low { k[names.0] = .int(Int64(low)) }
        if let high { k[names.1] = .int(Int64(high)) }
    }

    private func addNumbers(_ k: inout [String: ModelValue]) {
        guard column.type == .int || column.type == .double else { return }
        func number(_ v: Double) -> ModelValue {
            if v.rounded() == v, let i = Int64(exactly: v) { return .int(i) }
            return .double(v)
        }
        if let v = needs.minimum { k["minimum"] = number(v) }
        if let v = needs.maximum { k["maximum"] = number(v) }
        if let v = needs.exclusiveMinimum { k["exclusiveMinimum"] = number(v) }
        if let v = needs.exclusiveMaximum { k["exclusiveMaximum"] = number(v) }
    }

    private func addPatterns(_ k: inout [String: ModelValue]) {
        guard column.type == .string || column.type == .text else { return }
        var patterns = needs.patterns.map { "^(?:" + $0 + ")$" }
        if needs.isEmail {
            k["format"] = "email"
            patterns.append("^(?:" + EmailAddress.patternBody + ")$")
        }
        if let schemes = needs.urlSchemes, let grammar = URLAddress.grammar(schemes: schemes) {
            k["format"] = "uri"
            patterns.append("^(?:" + grammar.patternBody + ")$")
        }
        // presence: not blank (whitespace only fails, as the rule trims).
        if needs.isRequired { patterns.append("\\S") }
        guard let first = patterns.first else { return }
        k["pattern"] = .string(first)
        if patterns.count > 1 {
            k["allOf"] = .array(patterns.dropFirst().map { .dictionary(["pattern": .string($0)]) })
        }
    }
}
