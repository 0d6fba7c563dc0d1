import ArrayAdapter
import Foundation
import Synchronization
import Testing

import ModelCore

final class Watched: Model {
    @Column var name = ""
    init() {}
}

final class Unwatched: Model {
    @Column var name = ""
    init() {}
}

/// The commit signal behind query observation: once per commit that wrote a watched
/// table of the watched store, never for rollbacks, other tables or other stores.
@Suite struct TableObserverTests {
    /// Watches `Watched`'s table on `store`; returns the signal count and the token.
    func watch(_ store: any PersistenceAdapter) -> (Signals, UInt64) {
        let signals = Signals()
        let token = TableObservers.add(store: store, tables: [Watched.schema.tableName]) { signals.add() }
        return (signals, token)
    }

    @Test func oneSignalPerWriteOrCommitAndNoneOtherwise() throws {
        let store = ArrayAdapter(), other = ArrayAdapter()
        let (signals, token) = watch(store)
        defer { TableObservers.remove(token) }
        let record = try Watched.create(["name": "a"], in: store)
        #expect(signals.value == 1)
        try Unwatched.create(["name": "x"], in: store)  // another table
        try Watched.create(["name": "y"], in: other)  // another store
        #expect(signals.value == 1)
        try store.transaction {
            for k in 0..<100 { try Watched.create(["name": .string("\(k)")], in: store) }
            try Unwatched.create(["name": "x"], in: store)
            try store.transaction { try record.delete() }
        }
        #expect(signals.value == 2)  // one commit, one signal
        struct Undo: Error {}
        _ = try? store.transaction {
            try Watched.create(["name": "never"], in: store)
            throw Undo()
        }
        #expect(signals.value == 2)
        try store.transaction {
            try Unwatched.create(["name": "x"], in: store)
            _ = try? store.transaction {
                try Watched.create(["name": "rolled back savepoint"], in: store)
                throw Undo()
            }
        }
        #expect(signals.value == 2)  // the watched write rolled back with its savepoint
        try ModelNotifications.withoutNotifications { try Watched.create(["name": "quiet"], in: store) }
        #expect(signals.value == 3)  // silenced announcements still change data
        try Watched.query(in: store).updateAll(["name": "all"])
        #expect(signals.value == 4)
    }

    @Test func removedObserversHearNothing() throws {
        let store = ArrayAdapter()
        let (signals, token) = watch(store)
        TableObservers.remove(token)
        try Watched.create(["name": "a"], in: store)
        #expect(signals.value == 0)
    }
}

/// A count of signals, safe from any thread.
final class Signals: Sendable {
    private let count = Atomic<Int>(0)
    func add() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}
