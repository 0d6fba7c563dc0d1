import ArrayAdapter
import Foundation
import TestSupport
import Testing

/// An ArrayAdapter that records each fetch's condition and, when asked, cannot express
/// a null test (as an HTTP API's plain parameters cannot).
class PlanRecordingAdapter: ForwardingAdapter, @unchecked Sendable {  // `fetched` is a Locked
    let fetched = Locked<[QueryPredicate?]>([])
    let refusesNullTests: Bool

    struct NoNullTest: QueryNotExpressible {
        var unexpressedPart: String? { "a null test" }
    }

    init(refusesNullTests: Bool = false) { self.refusesNullTests = refusesNullTests }

    override func fetch(_ query: StoreQuery) throws -> [[ModelValue]] {
        if refusesNullTests, case .isNotNull = query.predicate { throw NoNullTest() }
        fetched.withLock { $0.append(query.predicate) }
        return try super.fetch(query)
    }

    /// The condition of the last fetch.
    var lastCondition: QueryPredicate? { fetched.withLock { $0.last ?? nil } }
}

/// ``PlanRecordingAdapter`` for the async terminals' own path (each call awaited).
final class AsyncPlanRecordingAdapter: PlanRecordingAdapter, AsyncPersistenceAdapter, @unchecked Sendable {  // as its superclass
    func find(id: ModelValue, in schema: ModelSchema) async throws -> [ModelValue]? { try base.find(id: id, in: schema) }
    func fetch(_ query: StoreQuery) async throws -> [[ModelValue]] { try (self as PlanRecordingAdapter).fetch(query) }
    func count(_ query: StoreQuery) async throws -> Int { try base.count(query) }
    func insertReturningStored(_ row: [ModelValue], into schema: ModelSchema) async throws -> (id: ModelValue, stored: [ModelValue]?) {
        (try base.insert(row, into: schema), nil)
    }
    func updateReturningStored(_ row: [ModelValue], changedColumns: [Int], in schema: ModelSchema) async throws -> [ModelValue]? {
        try base.update(row, changedColumns: changedColumns, in: schema)
        return nil
    }
    func delete(id: ModelValue, from schema: ModelSchema) async throws -> Bool { try base.delete(id: id, from: schema) }
    func delete(_ query: StoreQuery) async throws -> Int { try base.delete(query) }
    func update(_ query: StoreQuery, set values: [Int: ModelValue]) async throws -> Int { try base.update(query, set: values) }
    func aggregate(_ query: StoreQuery) async throws -> [AggregateGroup] { try base.aggregate(query) }
}

/// Eager loads for every row of a table read children by "key is set" instead of a list of
/// every owner's id, and give each owner exactly what the id list gives it.
@Suite struct EagerOwnersTests {
    /// Two boards with children, a child with no board and one whose board is gone.
    private func seed(_ store: PlanRecordingAdapter) throws -> (Board, Board) {
        let first = try Board.create(["title": "a"])
        let second = try Board.create(["title": "b"])
        try first.assignees.create(["name": "a1"])
        try second.assignees.create(["name": "b1"])
        try first.assignees.create(["name": "a2"])
        try Assignee.create(["name": "loose"])
        let gone = try Board.create(["title": "gone"])
        try gone.assignees.create(["name": "orphan"])
        _ = try store.base.delete(id: gone.id.modelValue, from: Board.schema)  // leaves its child dangling
        return (first, second)
    }

    private func names(_ boards: [Board]) -> [String: [String]] {
        Dictionary(uniqueKeysWithValues: boards.map { ($0.title, ($0.assignees.loaded ?? []).map(\.name)) })
    }

    @Test func everyOwnerReadsChildrenByKeyIsSet() throws {
        let store = PlanRecordingAdapter()
        try ModelStore.using(store) {
            let (first, _) = try seed(store)
            let boards = try Board.query().including(\.assignees).all()
            #expect(store.lastCondition == .isNotNull(column: Assignee.schema.index(ofColumn: "board_id") ?? -1))
            #expect(names(boards) == ["a": ["a1", "a2"], "b": ["b1"]])  // no dangling or loose child
            #expect(boards.first { $0.title == "a" }?.assignees.loaded?.allSatisfy { $0.board?.id == first.id } == true)
        }
    }

    @Test func aWindowOrConditionKeepsTheIdList() throws {
        let store = PlanRecordingAdapter()
        try ModelStore.using(store) {
            _ = try seed(store)
            let some = try Board.where(\.title == "a").including(\.assignees).all()
            guard case .compare = store.lastCondition else { Testing.Issue.record("expected the owner's id"); return }
            #expect(names(some) == ["a": ["a1", "a2"]])
            let firstOne = try Board.query().order(by: "title").including(\.assignees).first(1)
            #expect(names(firstOne) == ["a": ["a1", "a2"]])
            // A nested limit counts across owners: rows no owner takes must not use it up.
            let limited = try Board.query().including(\.assignees) { $0.order(by: "name").limit(2) }.all()
            guard case .isIn = store.lastCondition else { Testing.Issue.record("expected the id list"); return }
            #expect(names(limited) == ["a": ["a1", "a2"], "b": []])
        }
    }

    @Test func anAdapterWithoutNullTestsGetsTheIdList() throws {
        let store = PlanRecordingAdapter(refusesNullTests: true)
        try ModelStore.using(store) {
            _ = try seed(store)
            let boards = try Board.query().including(\.assignees).all()
            guard case .isIn = store.lastCondition else { Testing.Issue.record("expected the id list"); return }
            #expect(names(boards) == ["a": ["a1", "a2"], "b": ["b1"]])
        }
    }

    @Test func theAsyncPathReadsTheSameWay() async throws {
        let store = AsyncPlanRecordingAdapter()
        try await ModelStore.using(store) {
            _ = try seed(store)
            let count = store.fetched.withLock { $0.count }
            let boards = try await Board.query().including(\.assignees).all()
            #expect(store.fetched.withLock { $0.count } == count + 2)
            #expect(store.lastCondition == .isNotNull(column: Assignee.schema.index(ofColumn: "board_id") ?? -1))
            #expect(names(boards) == ["a": ["a1", "a2"], "b": ["b1"]])
        }
    }

    /// The id lists of the fetches since `start`, by length.
    private func listLengths(_ store: PlanRecordingAdapter, since start: Int) -> [Int] {
        store.fetched.withLock { Array($0[start...]) }.compactMap { condition in
            switch condition {
            case .isIn(_, let ids): ids.count
            case .compare(_, .equal, _): 1  // a list of one id
            default: nil
            }
        }
    }

    @Test func longIdListsAreReadInChunks() async throws {
        let store = AsyncPlanRecordingAdapter()
        let owners = IDChunks.size * 2 + 1
        try ModelStore.using(store) {
            for k in 0..<owners {
                let board = try Board.create(["title": .string("t\(k)")])
                try Assignee.create(["name": .string("n\(k)"), "board_id": board.id.modelValue])
            }
        }
        try await ModelStore.using(store) {
            var start = store.fetched.withLock { $0.count }
            let members = try await Assignee.query().including(\.board).all()
            #expect(listLengths(store, since: start) == [IDChunks.size, IDChunks.size, 1])
            #expect(members.allSatisfy { $0.board?.title.dropFirst() == $0.name.dropFirst() })

            start = store.fetched.withLock { $0.count }
            let boards = try await Board.where(\.title != "none").including(\.assignees).all()
            #expect(listLengths(store, since: start) == [IDChunks.size, IDChunks.size, 1])
            #expect(boards.allSatisfy { $0.assignees.loaded?.map(\.name) == ["n" + $0.title.dropFirst()] })

            // A nested window counts across every owner: one list, as before.
            start = store.fetched.withLock { $0.count }
            let limited = try await Board.where(\.title != "none").including(\.assignees) { $0.order(by: "name").limit(3) }.all()
            #expect(listLengths(store, since: start) == [owners])
            #expect(limited.reduce(0) { $0 + ($1.assignees.loaded?.count ?? 0) } == 3)
        }
    }
}
