import Foundation

/// A model's resolved routes: path templates and, for nested resources, the owner's
/// foreign key column. The client builds request paths from them and a server
/// (ModelServer) matches request paths against them, so both read one declaration.
package struct RESTRoutes: Sendable {
    /// A path template split into literal segments and `:column` placeholders.
    package struct Template: Sendable, CustomStringConvertible {
        package enum Segment: Sendable { case literal(String), value(column: Int, name: String) }
        package let segments: [Segment]
        package let description: String
        /// Whether the template ends with a slash (`"todos/"`): paths keep it, as APIs
        /// that route by it (Django's) need.
        package let trailingSlash: Bool

        package init(_ text: String, schema: ModelSchema) throws(RESTRouteError) {
            var segments: [Segment] = []
            for part in text.split(separator: "/") where !part.isEmpty {
                if part.hasPrefix(":") {
                    let name = String(part.dropFirst())
                    guard let column = schema.index(ofColumn: name) else {
                        throw RESTRouteError(
                            model: schema.modelName,
                            message: "the path template \"\(text)\" names :\(name), which is not a column")
                    }
                    segments.append(.value(column: column, name: name))
                } else {
                    segments.append(.literal(String(part)))
                }
            }
            self.segments = segments
            description = text
            trailingSlash = text.hasSuffix("/") && !segments.isEmpty
        }

        /// The columns the template needs.
        package var columns: [Int] {
            segments.compactMap { if case .value(let column, _) = $0 { column } else { nil } }
        }

        /// The path with placeholders filled from `values` (row index → value); nil when
        /// one is missing or null.
        package func path(_ values: (Int) -> ModelValue?) -> String? {
            var out = ""
            for segment in segments {
                switch segment {
                case .literal(let text): out += "/" + PercentEncoding.escape(text)
                case .value(let column, _):
                    guard let value = values(column), !value.isNull else { return nil }
                    out += "/" + PercentEncoding.escape(Self.text(value))
                }
            }
            return trailingSlash ? out + "/" : out
        }

        /// A value as a path segment: text as it is, a UUID in lower case (as RFC 9562 asks
        /// and servers that return UUID strings write them), anything else as JSON.
        package static func text(_ value: ModelValue) -> String {
            switch value {
            case .string(let s): s
            case .uuid(let u): u.uuidString.lowercased()
            default: ModelJSON.serialize(value)
            }
        }
    }

    /// The flat collection and instance (or the shallow ones of a nested resource).
    package let collection: Template
    package let instance: Template
    /// For a nested resource: the owner's foreign key column and the nested templates.
    package let nested: (foreignKey: Int, collection: Template, instance: Template)?
    /// Whether the flat templates may be used (false for a nested, non-shallow resource).
    package let flatAllowed: Bool

    package init(schema: ModelSchema, resource: RESTResource) throws(RESTRouteError) {
        let table = schema.tableName
        if let owner = resource.nestedUnder {
            let relation: Relation?
            do {
                relation = try schema.relation(named: owner)
            } catch {
                throw RESTRouteError(model: schema.modelName, message: "resolving \(owner): \(error)")
            }
            guard let relation, relation.kind == .belongsTo else {
                throw RESTRouteError(model: schema.modelName, message: "nestedUnder \"\(owner)\" is not a @BelongsTo relation")
            }
            let key = schema.columns[relation.foreignKey].name
            let base = "\(relation.target.tableName)/:\(key)/\(table)"
            nested = (
                relation.foreignKey, try Template(resource.collectionPath ?? base, schema: schema),
                try Template(resource.instancePath ?? base + "/:id", schema: schema)
            )
            collection = try Template(table, schema: schema)
            instance = try Template(table + "/:id", schema: schema)
            flatAllowed = resource.shallow
        } else {
            nested = nil
            collection = try Template(resource.collectionPath ?? table, schema: schema)
            instance = try Template(resource.instancePath ?? table + "/:id", schema: schema)
            flatAllowed = true
        }
    }
}
