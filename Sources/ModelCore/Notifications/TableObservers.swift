import Synchronization

/// Who waits for committed changes to which tables of which store: the signal behind
/// query observation (`Query.values()`).
///
/// A signal is sent once per committed write outside a transaction and once per
/// committed outermost transaction (naming every table it wrote), never for work that
/// rolled back — and also under `withoutNotifications`, which silences announcements,
/// not data. Callbacks run on the committing thread and must be quick (set a flag,
/// resume a continuation).
package enum TableObservers {
    /// A registration: the store and tables it watches, and what to call.
    package struct Registration: Sendable {
        let store: ObjectIdentifier
        let tables: Set<String>
        let callback: @Sendable () -> Void
    }

    private static let registrations = Locked<[UInt64: Registration]>([:])
    private static let active = Atomic<Int>(0)
    private static let nextToken = Atomic<UInt64>(0)

    /// Whether anybody observes anything (one relaxed load: writes check it first).
    package static var isActive: Bool { active.load(ordering: .relaxed) > 0 }

    /// Calls `callback` after each commit on `store` that wrote one of `tables`. Returns
    /// the token for ``remove(_:)``.
    package static func add(store: any PersistenceAdapter, tables: Set<String>, _ callback: @escaping @Sendable () -> Void)
        -> UInt64
    {
        let token = nextToken.add(1, ordering: .relaxed).newValue
        registrations.withLock {
            $0[token] = Registration(store: ObjectIdentifier(store), tables: tables, callback: callback)
        }
        active.add(1, ordering: .relaxed)
        return token
    }

    /// Ends a registration.
    package static func remove(_ token: UInt64) {
        if registrations.withLock({ $0.removeValue(forKey: token) }) != nil { active.subtract(1, ordering: .relaxed) }
    }

    /// Signals the observers of `store` whose tables `schemas` wrote (once each).
    package static func notify(store: ObjectIdentifier, schemas: [ModelSchema]) {
        guard isActive, !schemas.isEmpty else { return }
        let tables = Set(schemas.lazy.map(\.tableName))
        let matching = registrations.withLock { all in
            all.values.filter { $0.store == store && !$0.tables.isDisjoint(with: tables) }
        }
        for registration in matching { registration.callback() }
    }
}
