
/// The process-wide cache of model schemas, one per model type, built on first use.
package enum SchemaRegistry {
    private static let schemas = Locked<[ObjectIdentifier: ModelSchema]>([:])
    /// Serialises builds (recursive: building one model may build another).
    private static let buildLock = RecursiveLock()
    private static let building = ThreadLocal<BuildingSet>()
    private final class BuildingSet { var types: Set<ObjectIdentifier> = [] }

    /// The schema of `type`, building and caching it on first use.
    package static func schema<M: ModelProtocol>(for type: M.Type) -> ModelSchema {
        let key = ObjectIdentifier(type)
        if let cached = schemas.withLock({ $0[key] }) { return cached }
        return buildLock.withLock {
            if let cached = schemas.withLock({ $0[key] }) { return cached }
            let building = self.building.value ?? BuildingSet()
            self.building.value = building
            if building.types.contains(key) {
                // The prototype's own init is reading its properties: serve a provisional
                // schema from what has been declared so far (never cached).
                return SchemaBuilder.provisional(M.self, captured: DeclarationCapture.inProgress ?? [])
            }
            building.types.insert(key)
            defer { building.types.remove(key) }
            let schema = SchemaBuilder.build(M.self)
            schemas.withLock { $0[key] = schema }
            return schema
        }
    }

    /// The schema of a record's dynamic type.
    package static func schema(forObject object: ModelObject) -> ModelSchema {
        guard let type = type(of: object) as? any ModelProtocol.Type else {
            let name = String(describing: type(of: object))
            return ModelSchema(
                modelName: name, tableName: snakeCased(name), columns: [], idGeneration: .provided, locations: [],
                timestamps: false,
                problem: SchemaError(
                    .unsupportedInheritance, model: name,
                    reason: "\(name) subclasses ModelObject without conforming to Model; declare it as `final class \(name): Model`"
                ))
        }
        return schema(for: type)
    }
}
