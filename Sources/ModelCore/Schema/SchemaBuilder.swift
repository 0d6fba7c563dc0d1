import Foundation

/// Derives a ``ModelSchema`` from a model's declarations, once per type.
///
/// One prototype instance is made while ``DeclarationCapture`` records what each `@Column`
/// initialiser said; one `Mirror` over it gives the property names. Nothing here runs per
/// record.
enum SchemaBuilder {
    /// Column names that clash with the framework's members or common protocol
    /// requirements, after snake_casing.
    /// Property names that would shadow a member every record has (a stored property
    /// named `changes` would hide ``ModelProtocol/changes`` from the model's own code).
    /// Stored column names are free: `@Column var type`, `@Column("description") var summary`
    /// and `@Column var errorCount` map existing tables as they are; only `id` is taken.
    static let reservedPropertyNames: Set<String> = [
        "attributes", "changes", "errors", "isNew", "isDirty", "isValid", "validationState", "recordSchema",
        "dictionaryValue",
    ]

    static func build<M: ModelProtocol>(_ type: M.Type) -> ModelSchema {
        let modelName = String(describing: M.self)
        let (prototype, captured) = DeclarationCapture.capture { M() }
        var problems: [SchemaError] = []
        func problem(_ kind: SchemaError.Kind, _ column: String?, _ reason: String) {
            problems.append(SchemaError(kind, model: modelName, column: column, reason: reason))
        }

        let mirror = Mirror(reflecting: prototype)
        if let parent = mirror.superclassMirror, parent.subjectType != ModelObject.self {
            problem(
                .unsupportedInheritance, nil,
                "\(modelName) inherits from \(parent.subjectType); a model must inherit from Model directly (declare it `final class \(modelName): Model`)"
            )
        }
        let tableName = M.tableName
        if !isValidIdentifier(tableName) {
            problem(.invalidTableName, nil, "table name \"\(tableName)\" must match [A-Za-z_][A-Za-z0-9_]*")
        }

        let idType = M.IDValue.self
        var columns = [
            ColumnDefinition(
                name: "id", propertyName: "id", type: idType.columnType, isOptional: true, elementType: nil,
                options: [.unique], defaultValue: .none, index: 0, accepts: { Optional<M.IDValue>.accepts($0) })
        ]
        var locations = [-1]
        var seen: [String: String] = ["id": "id"]

        var relations: [RelationDeclaration] = []
        for child in mirror.children {
            guard let label = child.label else { continue }
            if let relation = child.value as? any AnyRelationWrapper {
                let propertyName = label.hasPrefix("_") ? String(label.dropFirst()) : label
                relations.append(relation.declaration(property: propertyName, owner: M.self))
                continue
            }
            guard let wrapper = child.value as? any AnyColumnWrapper else {
                if label == "id" || label == "_id" {
                    problem(
                        .declaredID, "id",
                        "every model already has an `id`; choose its type with `typealias IDValue = UUID` (Int64, Int, UUID or String) instead of declaring it"
                    )
                }
                continue  // a plain stored property: not persisted
            }
            let propertyName = label.hasPrefix("_") ? String(label.dropFirst()) : label
            let wrapperType = Swift.type(of: wrapper)
            let declaration = captured.first { $0.location == wrapper.location }
            let belongsTo = wrapperType as? any AnyBelongsToWrapper.Type
            let name = declaration?.name ?? snakeCased(propertyName) + (belongsTo == nil ? "" : "_id")
            if let belongsTo {
                relations.append(
                    belongsTo.declaration(property: propertyName, location: wrapper.location, slot: columns.count, owner: modelName))
            }
            var columnType = wrapperType.columnType
            if declaration?.options.contains(.text) == true {
                if columnType == .string {
                    columnType = .text
                } else {
                    problem(.invalidOption, snakeCased(propertyName), "the .text option needs a String property, not \(wrapperType.swiftTypeName)")
                }
            }
            let target = CastTarget(columnType, optional: wrapperType.isOptional, elementType: wrapperType.elementType)
            if let storages = declaration?.options.dateStorages, !storages.isEmpty {
                if columnType != .date {
                    problem(.invalidOption, snakeCased(propertyName), "the .dateStorage option needs a Date property, not \(wrapperType.swiftTypeName)")
                } else if storages.count > 1 {
                    problem(.invalidOption, snakeCased(propertyName), "one date storage per column, not \(storages.map(\.description).joined(separator: " and "))")
                }
            }

            if name == "id" {
                problem(
                    .declaredID, name,
                    "every model already has an `id`; choose its type with `typealias IDValue = …` instead of declaring an \"id\" column"
                )
            } else if reservedPropertyNames.contains(propertyName) {
                problem(.reservedName, name, "the property `\(propertyName)` would shadow the record member of that name; rename the property and keep the column with @Column(\"\(name)\")")
            } else if !isValidIdentifier(name) {
                problem(.invalidName, name, "column name \"\(name)\" must match [A-Za-z_][A-Za-z0-9_]*")
            } else if let other = seen[name] {
                problem(.duplicateName, name, "properties `\(other)` and `\(propertyName)` both map to the column \"\(name)\"")
            }
            seen[name] = propertyName

            var defaultValue = ColumnDefault.none
            if let declaration {
                if let literal = declaration.declaredDefault {
                    do {
                        let value = try Caster.cast(literal, to: target)
                        if wrapperType.accepts(value) {
                            defaultValue = .literal(value)
                        } else {
                            problem(.invalidDefault, name, "default \(literal) is out of range for \(wrapperType.swiftTypeName)")
                        }
                    } catch {
                        problem(.invalidDefault, name, "default \(literal) cannot be cast to \(target): \(error.reason)")
                    }
                } else if let factory = declaration.factory {
                    defaultValue = .factory(factory)
                }
            }
            columns.append(
                ColumnDefinition(
                    name: name, propertyName: propertyName, type: target.type, isOptional: target.isOptional,
                    elementType: target.elementType, options: declaration?.options ?? [], defaultValue: defaultValue,
                    index: columns.count, accepts: wrapperType.acceptor))
            locations.append(wrapper.location)
        }

        // Field timestamps: two stored, optional date columns per opted-in column, after the
        // declared ones (not properties: read them with lastSet/lastChanged).
        for column in columns where column.options.contains(.fieldTimestamps) {
            for suffix in ["_set_at", "_changed_at"] {
                let name = column.name + suffix
                if let other = seen[name] {
                    problem(.duplicateName, name, "`\(other)` maps to \"\(name)\", which .fieldTimestamps on \(column.name) needs")
                    continue
                }
                seen[name] = column.propertyName + suffix
                columns.append(
                    ColumnDefinition(
                        name: name, propertyName: column.propertyName + suffix, type: .date, isOptional: true, elementType: nil,
                        options: [], defaultValue: .none, index: columns.count, accepts: { Optional<Date>.accepts($0) }))
                locations.append(-2)
            }
        }

        return ModelSchema(
            modelName: modelName, tableName: tableName, columns: columns, idGeneration: M.IDValue.generation,
            locations: locations, timestamps: M.recordsTimestamps, problem: problems.first,
            validatesOnSave: M.self is any SaveValidating.Type, relations: relations, isObservable: M.isObservable,
            joinsContexts: M.joinsContexts, keepsHistory: M.keepsHistory, modelType: M.self)
    }

    /// A schema for a prototype that reads its own properties during `init`: columns in
    /// declaration order, placeholder names, not persistable.
    static func provisional<M: ModelProtocol>(_ type: M.Type, captured: [CapturedColumn]) -> ModelSchema {
        let modelName = String(describing: M.self)
        var columns = [
            ColumnDefinition(
                name: "id", propertyName: "id", type: M.IDValue.columnType, isOptional: true, elementType: nil,
                options: [], defaultValue: .none, index: 0, accepts: { _ in true })
        ]
        for declaration in captured {
            let target = CastTarget(declaration.columnType, optional: declaration.isOptional, elementType: declaration.elementType)
            var defaultValue: ColumnDefault = declaration.factory.map { .factory($0) } ?? .none
            if let literal = declaration.declaredDefault, let value = try? Caster.cast(literal, to: target) {
                defaultValue = .literal(value)
            }
            columns.append(
                ColumnDefinition(
                    name: "column_\(columns.count)", propertyName: "column_\(columns.count)",
                    type: declaration.columnType, isOptional: declaration.isOptional, elementType: declaration.elementType,
                    options: declaration.options, defaultValue: defaultValue, index: columns.count,
                    accepts: declaration.accepts))
        }
        return ModelSchema(
            modelName: modelName, tableName: M.tableName, columns: columns, idGeneration: M.IDValue.generation,
            locations: [-1] + captured.map(\.location), timestamps: false,
            problem: SchemaError(.unsupportedInheritance, model: modelName, reason: "schema under construction"))
    }

    static func isValidIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, first == UInt8(ascii: "_") || (65...90).contains(first) || (97...122).contains(first)
        else { return false }
        return name.utf8.allSatisfy { $0 == UInt8(ascii: "_") || (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) }
    }
}
