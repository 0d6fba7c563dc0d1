import Foundation

extension ModelProtocol {
    /// The model's JSON Schema (draft 2020-12): the documents `jsonData()` writes and
    /// `importJSON` reads, with the rules mapped to keywords.
    ///
    /// ```swift
    /// let schema = try Todo.jsonSchema()
    /// try schema.jsonData.write(to: url)      // for a web front end or an OpenAPI document
    /// ```
    ///
    /// | rule | keywords |
    /// | --- | --- |
    /// | `presence` | `required`; strings `minLength: 1` and `pattern: \S`; collections `minItems`/`minProperties: 1` |
    /// | `length` | `minLength`/`maxLength` (strings), `minItems`/`maxItems`, `minProperties`/`maxProperties` |
    /// | `format` | `pattern` (anchored: the rule matches the whole string) |
    /// | `email` | `format: email` and the rule's grammar as a `pattern` |
    /// | `url` | `format: uri` and the rule's grammar as a `pattern` |
    /// | `inclusion` / `exclusion` | `enum` / `not: {enum}` |
    /// | `numericality` | `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`; `onlyInteger` makes the type `integer` |
    ///
    /// Of several patterns on one column, the first is its `pattern`, the others go into
    /// `allOf`. The id and timestamp columns are
    /// `readOnly` and never required. Uniqueness, confirmation and custom rules have no
    /// keyword; they still run on save.
    ///
    /// - Throws: `ValidationDefinitionError` for malformed rules, `SchemaError`.
    public static func jsonSchema(_ options: JSONSchemaOptions = JSONSchemaOptions()) throws -> JSONSchemaDocument {
        let schema = Self.schema
        try schema.validate()
        let requirements = try ModelInputs.requirements(Self.self, context: options.context)
        let readOnly = ModelInputs.managedSlots(schema, timestamps: true)

        var properties: [String: ModelValue] = [:]
        var required: [ModelValue] = []
        for (slot, column) in schema.columns.enumerated() {
            let needs = requirements[slot]
            var property = JSONSchemaProperty(column: column, needs: needs, dates: options.dates).keywords
            if readOnly.contains(slot) {
                property["readOnly"] = .bool(true)
            } else if needs.isRequired {
                required.append(.string(column.name))
            }
            properties[column.name] = .dictionary(property)
        }
        var root: [String: ModelValue] = [
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": .string(schema.modelName),
            "type": "object",
            "properties": .dictionary(properties),
            "additionalProperties": .bool(options.allowsAdditionalProperties),
        ]
        if !required.isEmpty { root["required"] = .array(required) }
        if let id = options.id { root["$id"] = .string(id) }
        return JSONSchemaDocument(root: .dictionary(root))
    }
}
