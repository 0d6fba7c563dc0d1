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
        _ changes: UnsafeBufferPointer<PendingChange>, schemas: [ModelSchema], store: ObjectIdentifier
    ) {
        if ModelNotifications.hasListeners {
            for k in changes.indices where changes[k].announce {
                var change = changes[k].change
                change.store = store
                ModelNotifications.deliver(change, instance: changes[k].instance, subscribedBy: changes[k].lastSubscriber)
            }
        }
        if RegistryHub.isActive { RegistryHub.deliver(changes, store: store) }
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
        let entries = changes.map { PendingChange($0, instance: nil, announce: announce) }
        entries.withUnsafeBufferPointer { publish($0, schemas: schemas, store: key) }
    }
}

/// A change waiting for its transaction to commit.
package struct PendingChange {
    let change: ModelChange
    /// The record that made it, held weakly: a transaction does not keep the records it
    /// wrote alive (nil at commit when the record is gone).
    weak var instance: AnyObject?
    /// False while notifications are suppressed (contexts still merge it).
    let announce: Bool
    /// The change streams that were listening when the change was made: those numbered up
    /// to this (``ModelNotifications/lastSubscriber``). A stream started later does not
    /// get it, as outside a transaction.
    let lastSubscriber: UInt64

    init(_ change: ModelChange, instance: AnyObject?, announce: Bool, lastSubscriber: UInt64 = .max) {
        self.change = change
        self.instance = instance
        self.announce = announce
        self.lastSubscriber = lastSubscriber
    }
}
