/// The one path a commit takes to everything that follows changes: change streams and
/// `.modelDidChange` (``ModelNotifications``), the record registries of contexts
/// (`RegistryHub`) and query observation (``TableObservers``).
///
/// A commit is published once, with its store's identity, whether SwiftModel made it (a
/// write outside a transaction, or a transaction's commit: see `TransactionContext`) or
/// another party did (``publishExternal(_:schemas:store:)``: rows a sync pull brought,
/// another process's commit). Each change is stamped with the store. "Is anyone
/// listening" is ``hasListeners``, one check before any change is built.
package enum CommitBus {
    /// Whether anything follows commits now.
    @inline(__always) package static var hasListeners: Bool {
        ModelNotifications.hasListeners || RegistryHub.isActive || TableObservers.isActive
    }

    /// Whether anything takes the changes themselves (not only the tables written).
    @inline(__always) package static var takesChanges: Bool { ModelNotifications.hasListeners || RegistryHub.isActive }

    /// Publishes one commit to `store`: its changes in order (`announce`: not suppressed
    /// by `ModelNotifications.withoutNotifications`) and the tables it wrote.
    package static func publish(
        _ changes: UnsafeBufferPointer<(ModelChange, AnyObject?, announce: Bool)>, schemas: [ModelSchema], store: ObjectIdentifier
    ) {
        if ModelNotifications.hasListeners {
            for k in changes.indices where changes[k].announce {
                var change = changes[k].0
                change.store = store
                ModelNotifications.deliver(change, instance: changes[k].1)
            }
        }
        if RegistryHub.isActive {
            for k in changes.indices { RegistryHub.deliver(changes[k].0, instance: changes[k].1, store: store) }
        }
        TableObservers.notify(store: store, schemas: schemas)
    }

    /// Publishes one change made outside a transaction.
    package static func publish(
        _ change: ModelChange, instance: AnyObject?, announce: Bool, schema: ModelSchema, store: ObjectIdentifier
    ) {
        var change = change
        change.store = store
        if announce, ModelNotifications.hasListeners { ModelNotifications.deliver(change, instance: instance) }
        if RegistryHub.isActive { RegistryHub.deliver(change, instance: instance, store: store) }
        if TableObservers.isActive { TableObservers.notify(store: store, schemas: [schema]) }
    }

    /// Publishes a commit another party made to `store` (see ``ModelChange/external(_:schema:id:values:)``):
    /// change streams get the changes, contexts bring the instances they hold up to date
    /// (unless those have unsaved changes), and observed queries over `schemas` refresh.
    /// `changes` may be empty when only the tables are known (a notification without rows).
    package static func publishExternal(_ changes: [ModelChange], schemas: [ModelSchema], store: any PersistenceAdapter) {
        let key = ObjectIdentifier(store)
        let announce = !ModelNotifications.areSuppressed
        let entries = changes.map { ($0, AnyObject?.none, announce: announce) }
        entries.withUnsafeBufferPointer { publish($0, schemas: schemas, store: key) }
    }
}
