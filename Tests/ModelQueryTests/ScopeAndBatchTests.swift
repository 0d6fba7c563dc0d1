import ArrayAdapter
import Foundation
import Testing

@Suite struct ScopeTests {
    @Test func namedAndDynamicScopesCompose() throws {
        try withPeople { (_: ArrayAdapter) throws in
            #expect(try names(Person.seasoned.all()) == ["Bob", "Eve", "Gus", "Ann Marie"])
            #expect(try names(Person.seasoned.merging(Person.parisian).all()) == ["Gus"])
            #expect(try names(Person.parisian.merging(Person.olderThan(33)).all()) == ["Ann", "Gus"])
            #expect(try names(Person.seasoned.where("city").eq("Seattle").all()) == ["Bob", "Ann Marie"])
            // scopes declared on Query<Person> chain anywhere
            #expect(try names(Person.parisian.active.all()) == ["Ann"])
            #expect(try names(Person.seasoned.active.scoring(atLeast: 6).order(by: \.name).all()) == ["Bob", "Eve"])
            // merging keeps the other's order and window
            let topTwo = Person.order(by: \.score, .descending).limit(2)
            #expect(try names(Person.seasoned.merging(topTwo).all()) == ["Bob", "Eve"])
            // a scope is a value: using it does not change it
            #expect(try Person.seasoned.count() == 4)
        }
    }

    @Test func queriesAreLazyAndRunOnce() throws {
        let spy = SpyAdapter(ArrayAdapter())
        try ModelStore.using(spy) {
            for name in ["a", "b", "c"] { try Person.create(["name": .string(name)]) }
            spy.calls.withLock { $0 = [] }
            let query = Person.where(\.name > "a").order(by: \.name).limit(5)
            let broken = Person.where("nope").eq(1)
            #expect(spy.calls.withLock { $0 }.isEmpty)  // building runs nothing
            #expect(try names(query.all()) == ["b", "c"])
            #expect(spy.calls.withLock { $0 } == ["fetch"])
            #expect(throws: QueryError.self) { try broken.all() }
            #expect(spy.calls.withLock { $0 } == ["fetch"])  // a bad query never reaches the store
            _ = try query.count()
            _ = try query.sum(\.score)
            #expect(spy.calls.withLock { $0 } == ["fetch", "count", "aggregate"])
        }
    }

    @Test func aQueryCanNameItsStore() throws {
        let other = ArrayAdapter()
        try Person.create(["name": "elsewhere"], in: other)
        try withPeople { (_: ArrayAdapter) throws in
            #expect(try Person.query(in: other).count() == 1)
            #expect(try Person.where(\.name == "elsewhere").using(other).exists())
            #expect(try !Person.where(\.name == "elsewhere").exists())
        }
    }
}

@Suite(.serialized) struct BatchTests {
    @Test func deleteAllFromAQuery() throws {
        try withPeople { (_: ArrayAdapter) throws in
            #expect(try Person.where("city").eq("Paris").deleteAll() == 3)
            #expect(try Person.count() == 5)
            #expect(try Person.where(\.city == "Paris").count() == 0)
            let startingWithA = Person.query().filter { $0.name.hasPrefix("A") }
            #expect(try startingWithA.deleteAll() == 1)
            #expect(try names(Person.query().all()) == ["Bob", "Dan", "Eve", "Finn"])
        }
    }

    @Test func updateAllCastsSkipsHooksAndAnnouncesOnce() throws {
        try withPeople { (_: ArrayAdapter) throws in
            let log = Locked<[ModelChange]>([])
            let thread = currentThreadID()  // other suites write `Person`s on other threads meanwhile
            let token = NotificationCenter.default.addObserver(forName: .modelDidChange, object: nil, queue: nil) { note in
                if currentThreadID() == thread, let change = note.userInfo?["change"] as? ModelChange,
                    change.isAbout(Person.self)
                {
                    log.withLock { $0.append(change) }
                }
            }
            defer { NotificationCenter.default.removeObserver(token) }
            let before = try #require(try Person.where(\.name == "Bob").first())
            #expect(try Person.where("city").eq("Seattle").updateAll(["score": "10", "active": false]) == 2)
            #expect(try Person.where(\.score == 10.0).pluck("name") == ["Bob", "Ann Marie"])
            #expect(try Person.where(\.active == false).count() == 4)
            #expect(before.score == 6.0 && before.log.isEmpty)  // in-memory records are not refreshed; no hooks
            let received = log.withLock { $0 }
            #expect(received.count == 1 && received.first?.action == .updateAll && received.first?.count == 2)
            #expect(received.first?.changedColumns == ["score", "active"])
            #expect(try Person.where(\.score == 10.0).updateAll(["score": 10.0]) == 0)  // unchanged rows don't count
        }
    }

    @Test func updateAllRefusesBadInput() throws {
        try withPeople { (_: ArrayAdapter) throws in
            #expect(throws: QueryError.self) { try Person.query().updateAll(["id": 5]) }
            #expect(throws: QueryError.self) { try Person.query().updateAll(["nope": 5]) }
            // A value that does not cast is the same CastError assignment gives.
            let cast = #expect(throws: CastError.self) { try Person.query().updateAll(["age": "old"]) }
            #expect(cast?.model == "Person" && cast?.column == "age")
            #expect(throws: CastError.self) { try Person.query().updateAll(["score": .double(.nan)]) }
            #expect(throws: QueryError.self) { try Person.query().updateAll(["name": nil]) }
            #expect(try Person.query().sum(\.score) == 55.5)  // nothing written
        }
    }

    @Test func updateAllRollsBackWithTheTransaction() throws {
        try withPeople { (store: ArrayAdapter) throws in
            struct Boom: Error {}
            #expect(throws: Boom.self) {
                try store.transaction {
                    try Person.query().updateAll(["score": 0])
                    throw Boom()
                }
            }
            #expect(try Person.query().sum(\.score) == 55.5)
        }
    }
}
