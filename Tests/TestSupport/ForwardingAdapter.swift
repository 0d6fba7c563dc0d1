import ArrayAdapter
import Foundation
import ModelCore

/// An adapter passing every call to an ``ArrayAdapter``: the base of the test adapters
/// that change one behaviour (a failing read, a recorded query) and keep the rest.
///
/// `@unchecked Sendable`: its only stored property is a `let` of a `Sendable` type;
/// subclasses guard their own state (with ``Locked``).
open class ForwardingAdapter: PersistenceAdapter, @unchecked Sendable {
    public let base = ArrayAdapter()

    public init() {}

    open func prepare(_ schema: ModelSchema) throws { try base.prepare(schema) }
    open func close() throws { try base.close() }
    open func insert(_ row: [ModelValue], into schema: ModelSchema) throws -> ModelValue { try base.insert(row, into: schema) }
    /// Declared here (not left to the protocol's default) so subclasses can override it.
    open func insertReturningStored(_ row: [ModelValue], into schema: ModelSchema) throws -> (id: ModelValue, stored: [ModelValue]?) {
        (try base.insert(row, into: schema), nil)
    }
    open func update(_ row: [ModelValue], changedColumns: [Int], in schema: ModelSchema) throws {
        try base.update(row, changedColumns: changedColumns, in: schema)
    }
    open func delete(id: ModelValue, from schema: ModelSchema) throws -> Bool { try base.delete(id: id, from: schema) }
    open func find(id: ModelValue, in schema: ModelSchema) throws -> [ModelValue]? { try base.find(id: id, in: schema) }
    open func fetch(_ query: StoreQuery) throws -> [[ModelValue]] { try base.fetch(query) }
    open func count(_ query: StoreQuery) throws -> Int { try base.count(query) }
    open func delete(_ query: StoreQuery) throws -> Int { try base.delete(query) }
    open func update(_ query: StoreQuery, set values: [Int: ModelValue]) throws -> Int { try base.update(query, set: values) }
    open func aggregate(_ query: StoreQuery) throws -> [AggregateGroup] { try base.aggregate(query) }
    open func withTransaction<R>(_ body: () throws -> R) throws -> R { try base.withTransaction(body) }
}
