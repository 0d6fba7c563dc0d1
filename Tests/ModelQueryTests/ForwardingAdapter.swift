import ArrayAdapter
import Foundation

/// An adapter passing every call to an ``ArrayAdapter``: the base of the test adapters
/// that change one behaviour (a failing read, a recorded query) and keep the rest.
///
/// `@unchecked Sendable`: its only stored property is a `let` of a `Sendable` type;
/// subclasses guard their own state (with ``Locked``).
class ForwardingAdapter: PersistenceAdapter, @unchecked Sendable {
    let base = ArrayAdapter()

    init() {}

    func prepare(_ schema: ModelSchema) throws { try base.prepare(schema) }
    func close() throws { try base.close() }
    func insert(_ row: [ModelValue], into schema: ModelSchema) throws -> ModelValue { try base.insert(row, into: schema) }
    /// Declared here (not left to the protocol's default) so subclasses can override it.
    func insertReturningStored(_ row: [ModelValue], into schema: ModelSchema) throws -> (id: ModelValue, stored: [ModelValue]?) {
        (try base.insert(row, into: schema), nil)
    }
    func update(_ row: [ModelValue], changedColumns: [Int], in schema: ModelSchema) throws {
        try base.update(row, changedColumns: changedColumns, in: schema)
    }
    func delete(id: ModelValue, from schema: ModelSchema) throws -> Bool { try base.delete(id: id, from: schema) }
    func find(id: ModelValue, in schema: ModelSchema) throws -> [ModelValue]? { try base.find(id: id, in: schema) }
    func fetch(_ query: StoreQuery) throws -> [[ModelValue]] { try base.fetch(query) }
    func count(_ query: StoreQuery) throws -> Int { try base.count(query) }
    func delete(_ query: StoreQuery) throws -> Int { try base.delete(query) }
    func update(_ query: StoreQuery, set values: [Int: ModelValue]) throws -> Int { try base.update(query, set: values) }
    func aggregate(_ query: StoreQuery) throws -> [AggregateGroup] { try base.aggregate(query) }
    func withTransaction<R>(_ body: () throws -> R) throws -> R { try base.withTransaction(body) }
}
