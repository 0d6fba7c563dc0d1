
import Synchronization

/// The process-wide cache of model schemas, one per model type, built on first use.
///
/// Every record and class-level call looks its schema up, so reads take no lock: they load
/// an immutable snapshot of the table through an atomic pointer. A build (under
/// `buildLock`) publishes a new snapshot with its schema added. Snapshots are never freed,
/// since a reader may still be using one it loaded; there is one per model type built, so
/// that is a few small arrays per process.
package enum SchemaRegistry {
    /// The schemas built so far, by their model type's address (a dictionary lookup
    /// hashed the key with SipHash on every `find`, about 150 instructions; a binary search
    /// over the sorted addresses, about 70).
    private final class Snapshot: Sendable {
        let keys: [UInt]
        let schemas: [ModelSchema]
        let index: AddressTable

        init(keys: [UInt], schemas: [ModelSchema]) {
            (self.keys, self.schemas, index) = (keys, schemas, AddressTable(keys))
        }

        func schema(for key: UInt) -> ModelSchema? { index.position(of: key).map { schemas[$0] } }
    }
    private static let published = Atomic<Unmanaged<Snapshot>?>(nil)

    /// The built schema of the model type `key`, if any. The snapshot is read at +0
    /// (`_withUnsafeGuaranteedRef`): snapshots are never freed, and retaining and releasing
    /// it cost two atomic operations on every class-level call.
    private static func cached(_ key: ObjectIdentifier) -> ModelSchema? {
        guard let snapshot = published.load(ordering: .acquiring) else { return nil }
        return snapshot._withUnsafeGuaranteedRef { $0.schema(for: UInt(bitPattern: key)) }
    }

    /// Adds `schema` (call holding `buildLock`; a model's schema is built once).
    private static func publish(_ schema: ModelSchema, for key: ObjectIdentifier) {
        let current = published.load(ordering: .acquiring)?.takeUnretainedValue()
        let keys = (current?.keys ?? []) + [UInt(bitPattern: key)]
        let schemas = (current?.schemas ?? []) + [schema]
        // Retained for good: the previous snapshot stays valid for readers that hold it.
        published.store(Unmanaged.passRetained(Snapshot(keys: keys, schemas: schemas)), ordering: .releasing)
    }
    /// Serialises builds (recursive: building one model may build another).
    private static let buildLock = RecursiveLock()
    private static let building = ThreadLocal<BuildingSet>()
    private final class BuildingSet { var types: Set<ObjectIdentifier> = [] }

    /// The schema of `type`, building and caching it on first use.
    package static func schema<M: ModelProtocol>(for type: M.Type) -> ModelSchema {
        let key = ObjectIdentifier(type)
        if let cached = cached(key) { return cached }
        return buildLock.withLock {
            if let cached = cached(key) { return cached }
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
            publish(schema, for: key)
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
