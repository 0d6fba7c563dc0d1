import ArrayAdapter
import Foundation
import Synchronization
import TestSupport
import Testing

/// Every terminal is written once, as ``StoreSteps``: the blocking and the async driver
/// make the same store calls in the same order with the same arguments, and return the
/// same results — on an adapter the async API runs on the blocking pool, and on one with
/// async operations of its own (awaited instead). Transcripts are compared call by call.
@Suite struct StoreStepsTests {
    /// Records every call as a line (kind and query), passing it on to an ``ArrayAdapter``.
    class RecordingAdapter: ForwardingAdapter, @unchecked Sendable {
        // `@unchecked Sendable`: `lines` is a `Mutex`.
        let lines = Mutex<[String]>([])

        func note(_ line: String) { lines.withLock { $0.append(line) } }
        func take() -> [String] {
            lines.withLock { lines in
                defer { lines = [] }
                return lines
            }
        }

        override func find(id: ModelValue, in schema: ModelSchema) throws -> [ModelValue]? {
            note("find \(schema.tableName) \(id)")
            return try super.find(id: id, in: schema)
        }
        override func fetch(_ query: StoreQuery) throws -> [[ModelValue]] {
            note("fetch \(query)")
            return try super.fetch(query)
        }
        override func count(_ query: StoreQuery) throws -> Int {
            note("count \(query)")
            return try super.count(query)
        }
        override func delete(_ query: StoreQuery) throws -> Int {
            note("delete \(query)")
            return try super.delete(query)
        }
        override func update(_ query: StoreQuery, set values: [Int: ModelValue]) throws -> Int {
            note("update \(query) \(values.sorted { $0.key < $1.key })")
            return try super.update(query, set: values)
        }
        override func aggregate(_ query: StoreQuery) throws -> [AggregateGroup] {
            note("aggregate \(query)")
            return try super.aggregate(query)
        }
        override func delete(id: ModelValue, from schema: ModelSchema) throws -> Bool {
            note("delete \(schema.tableName) \(id)")
            return try super.delete(id: id, from: schema)
        }
    }

    /// The same, with async operations of its own: the async API awaits these.
    final class AsyncRecordingAdapter: RecordingAdapter, AsyncPersistenceAdapter, @unchecked Sendable {
        /// This adapter as its synchronous self (the overloads an async context would not pick).
        private var blocking: RecordingAdapter { self }

        func find(id: ModelValue, in schema: ModelSchema) async throws -> [ModelValue]? { try blocking.find(id: id, in: schema) }
        func fetch(_ query: StoreQuery) async throws -> [[ModelValue]] { try blocking.fetch(query) }
        func count(_ query: StoreQuery) async throws -> Int { try blocking.count(query) }
        func insertReturningStored(_ row: [ModelValue], into schema: ModelSchema) async throws -> (
            id: ModelValue, stored: [ModelValue]?
        ) { try blocking.insertReturningStored(row, into: schema) }
        func updateReturningStored(_ row: [ModelValue], changedColumns: [Int], in schema: ModelSchema) async throws
            -> [ModelValue]?
        { try blocking.updateReturningStored(row, changedColumns: changedColumns, in: schema) }
        func delete(id: ModelValue, from schema: ModelSchema) async throws -> Bool { try blocking.delete(id: id, from: schema) }
        func delete(_ query: StoreQuery) async throws -> Int { try blocking.delete(query) }
        func update(_ query: StoreQuery, set values: [Int: ModelValue]) async throws -> Int {
            try blocking.update(query, set: values)
        }
        func aggregate(_ query: StoreQuery) async throws -> [AggregateGroup] { try blocking.aggregate(query) }
    }

    /// A league of two teams with players, and people, in `store`.
    private static func seed(_ store: RecordingAdapter) throws {
        try ModelStore.using(store) {
            let league = League()
            league.name = "north"
            try league.save()
            for (k, name) in ["owls", "foxes"].enumerated() {
                let team = Team()
                team.name = name
                team.league = league
                try team.save()
                for p in 0..<(k + 2) {
                    let player = Player()
                    player.name = "\(name) \(p)"
                    player.team = team
                    try player.save()
                }
            }
            for (name, age, city, score, active) in people {
                let person = Person()
                (person.name, person.age, person.city, person.score, person.active) = (name, age, city, score, active)
                try person.save()
            }
        }
        _ = store.take()
    }

    /// One terminal in both forms, described by what it returns (for comparing results).
    struct Terminal: Sendable, CustomTestStringConvertible {
        let name: String
        let sync: @Sendable (any PersistenceAdapter) throws -> String
        let async: @Sendable (any PersistenceAdapter) async throws -> String
        var testDescription: String { name }
    }

    static let terminals: [Terminal] = [
        Terminal(
            name: "all with Swift filter and includes",
            sync: { s in names(try Person.query().using(s).filter { $0.score > 6 }.order(by: \.name).all()).joined(separator: ",") },
            async: { s in names(try await Person.query().using(s).filter { $0.score > 6 }.order(by: \.name).all()).joined(separator: ",") }),
        Terminal(
            name: "first, last, page",
            sync: { s in
                let q = Person.where(\.active == true).using(s).order(by: \.name)
                return "\(try q.first()?.name ?? "-") \(try q.last()?.name ?? "-") \(names(try q.page(2, per: 2).items))"
            },
            async: { s in
                let q = Person.where(\.active == true).using(s).order(by: \.name)
                return "\(try await q.first()?.name ?? "-") \(try await q.last()?.name ?? "-") \(names(try await q.page(2, per: 2).items))"
            }),
        Terminal(
            name: "count, exists, pluck, aggregates",
            sync: { s in
                let q = Person.where(\.score > 5).using(s)
                return "\(try q.count()) \(try q.exists()) \(try q.pluck("name")) \(try q.sum("score")) \(try q.max("age"))"
            },
            async: { s in
                let q = Person.where(\.score > 5).using(s)
                return "\(try await q.count()) \(try await q.exists()) \(try await q.pluck("name")) \(try await q.sum("score")) \(try await q.max("age"))"
            }),
        Terminal(
            name: "eager loads, nested",
            sync: { s in
                let leagues = try League.query().using(s).including(\.teams) { $0.including(\.players) }.all()
                return leagues.map { l in (l.teams.loaded ?? []).map { "\($0.name):\($0.players.loaded?.count ?? -1)" }.joined(separator: ",") }
                    .joined()
            },
            async: { s in
                let leagues = try await League.query().using(s).including(\.teams) { $0.including(\.players) }.all()
                return leagues.map { l in (l.teams.loaded ?? []).map { "\($0.name):\($0.players.loaded?.count ?? -1)" }.joined(separator: ",") }
                    .joined()
            }),
        Terminal(
            name: "relation loads and through",
            sync: { s in
                let player = try #require(try Player.query().using(s).first())
                let team = try player.load(\.team)
                let league = try #require(try League.query().using(s).first())
                return "\(team?.name ?? "-") \(try team?.players.count() ?? -1) \(try league.players.all().map(\.name))"
            },
            async: { s in
                let player = try #require(try await Player.query().using(s).first())
                let team = try await player.load(\.team)
                let league = try #require(try await League.query().using(s).first())
                return "\(team?.name ?? "-") \(try await team?.players.count() ?? -1) \(try await league.players.all().map(\.name))"
            }),
        Terminal(
            name: "updateAll, deleteAll, by id",
            sync: { s in
                let changed = try Person.where(\.city == "Paris").using(s).updateAll(["score": 1.0])
                let gone = try Person.where(\.active == false).using(s).deleteAll()
                let updated = try Person.update(id: 1, set: ["name": "Ann"], in: s)
                let deleted = try Person.delete(id: 2, in: s)
                return "\(changed) \(gone) \(updated) \(deleted) \(try Person.count(in: s)) \(try Person.all(in: s).count)"
            },
            async: { s in
                let changed = try await Person.where(\.city == "Paris").using(s).updateAll(["score": 1.0])
                let gone = try await Person.where(\.active == false).using(s).deleteAll()
                let updated = try await Person.update(id: 1, set: ["name": "Ann"], in: s)
                let deleted = try await Person.delete(id: 2, in: s)
                return "\(changed) \(gone) \(updated) \(deleted) \(try await Person.count(in: s)) \(try await Person.all(in: s).count)"
            }),
    ]

    @Test(arguments: terminals, [false, true])
    func bothDriversMakeTheSameCallsAndAnswers(_ terminal: Terminal, nativeAsync: Bool) async throws {
        let (syncStore, asyncStore) = nativeAsync
            ? (AsyncRecordingAdapter() as RecordingAdapter, AsyncRecordingAdapter() as RecordingAdapter)
            : (RecordingAdapter(), RecordingAdapter())
        try Self.seed(syncStore)
        try Self.seed(asyncStore)
        let syncResult = try terminal.sync(syncStore)
        let asyncResult = try await terminal.async(asyncStore)
        #expect(asyncResult == syncResult)
        let syncCalls = syncStore.take()
        #expect(!syncCalls.isEmpty)
        #expect(asyncStore.take() == syncCalls)
    }

    @Test func aReplyOfTheWrongKindIsATypedErrorNotATrap() throws {
        let query = StoreQuery(schema: Person.schema)
        #expect(throws: StoreError.self) { try StoreReply.count(3).rows(for: query) }
        #expect(throws: StoreError.self) { try StoreReply.rows([]).groups(for: query) }
    }

    @Test func aFallbackForAnExpressionTheAdapterRefusesRunsInBothDrivers() async throws {
        // `recovering` answers a refused call with other steps, in both drivers alike.
        struct Refused: Error {}
        let store = RecordingAdapter()
        try Self.seed(store)
        let query = StoreQuery(schema: Person.schema)
        let steps = {
            StoreSteps<Int>.count(query, on: store) { _ in throw Refused() }.recovering { error in
                error is Refused ? .count(query, on: store) { .done($0 * 10) } : nil
            }
        }
        let blocking: () throws -> Int = { try steps().run() }
        #expect(try blocking() == 80)
        #expect(try await steps().run() == 80)
        #expect(store.take().count == 4)
    }
}
