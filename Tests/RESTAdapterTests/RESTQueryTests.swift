import Foundation
import RESTAdapter
import RESTTestServer
import Testing

/// Query encoders, refusals before any request, and paged lists.
@Suite struct RESTQueryTests {
    func seeded(_ configure: (inout RESTConfiguration) -> Void = { _ in }, options: RESTTestServer.Options = .init()) throws -> RESTFixture {
        let f = try RESTFixture(options: options, configure: configure, nested: false)
        f.server.seed("employees", (1...7).map { ["name": .string("e\($0)"), "age": .int(Int64(20 + $0))] })
        return f
    }

    @Test func plainParametersCarryEqualityOperatorsOrderAndWindow() throws {
        let f = try seeded()
        let names = try ModelStore.using(f.adapter) {
            try Employee.where(\.age >= 22 && \.name != "e5").order(by: \.age, .descending).limit(2).offset(1).pluck(\.name)
        }
        #expect(names == ["e6", "e4"])
        #expect(f.log == ["GET /employees?age_gte=22&name_ne=e5&sort=-age&limit=2&offset=1"])
    }

    @Test func parseWhereCarriesOrInNullsAndText() throws {
        let f = try seeded { $0.queryEncoder = ParseQueryEncoder() }
        let names = try ModelStore.using(f.adapter) {
            try Employee.where(\.age < 22 || \.name == "e7").pluck(\.name)
        }
        #expect(names == ["e1", "e7"])
        let request = try #require(f.server.requests.last)
        #expect(request.parameter("where") == #"{"$or":[{"age":{"$lt":22}},{"name":"e7"}]}"#)
        let prefixed = try ModelStore.using(f.adapter) { try Employee.where("name").beginsWith("E", caseInsensitive: true).count() }
        #expect(prefixed == 7)
    }

    @Test func whatAnEncoderCannotExpressFailsBeforeAnyRequest() throws {
        let f = try seeded { $0.queryEncoder = PlainQueryEncoder.equalityOnly }
        let error = #expect(throws: RESTError.self) {
            try ModelStore.using(f.adapter) { _ = try Employee.where(\.age > 3).all() }
        }
        #expect(error?.kind == .unsupportedQuery)
        #expect(error.map { "\($0)" }?.contains("age > 3") == true, "names the part: \(String(describing: error))")
        #expect(throws: RESTError.self) { try ModelStore.using(f.adapter) { _ = try Employee.where("name").contains("e").all() } }
        #expect(throws: RESTError.self) { try ModelStore.using(f.adapter) { _ = try Employee.query().limit(3).all() } }
        #expect(f.server.requests.isEmpty, "nothing was fetched to filter on the client")
        #expect(try ModelStore.using(f.adapter) { try Employee.where(\.age == 23).pluck(\.name) } == ["e3"])
    }

    /// A store without row locks refuses a locking fetch (it would run unlocked) but counts
    /// and deletes with the lock, which they ignore everywhere (Transactions.md).
    @Test func onlyFetchesRefuseALockTheStoreCannotTake() throws {
        let f = try seeded()
        let locked = Employee.where(\.age > 25).lockForUpdate().using(f.adapter)
        let fetch = #expect(throws: StoreError.self) { _ = try locked.all() }
        #expect(fetch?.kind == .invalidRequest)
        #expect(throws: StoreError.self) { _ = try locked.first() }
        #expect(try locked.count() == 2)
        #expect(try locked.exists())
        #expect(try locked.deleteAll() == 2)
        #expect(try Employee.query().using(f.adapter).count() == 5)
    }

    @Test func asyncCountsIgnoreALockTheStoreCannotTake() async throws {
        let f = try seeded()
        let locked = Employee.where(\.age > 25).lockForUpdate().using(f.adapter)
        await #expect(throws: StoreError.self) { _ = try await locked.all() }
        #expect(try await locked.count() == 2)
        #expect(try await locked.exists())
        #expect(try await locked.deleteAll() == 2)
    }

    @Test func conditionsThatMatchNothingSendNothing() throws {
        let f = try seeded()
        let none = try ModelStore.using(f.adapter) { try Employee.where("age").in([]).all() }
        #expect(none.isEmpty)
        #expect(f.server.requests.isEmpty)
    }

    @Test func pagePerPageEncoding() throws {
        let f = try seeded { $0.queryEncoder = PlainQueryEncoder(paging: .pages(page: "page", perPage: "per_page")) }
        let page = try ModelStore.using(f.adapter) { try Employee.query().limit(3).offset(3).pluck(\.name) }
        #expect(page == ["e4", "e5", "e6"])
        #expect(f.log == ["GET /employees?page=2&per_page=3"])
        #expect(throws: RESTError.self) { try ModelStore.using(f.adapter) { _ = try Employee.query().limit(3).offset(2).all() } }
    }

    @Test func linkedPagesAreFollowedUpToTheCap() throws {
        let f = try seeded(options: .init(pageSize: 2))
        let all = try ModelStore.using(f.adapter) { try Employee.all().map(\.name) }
        #expect(all == (1...7).map { "e\($0)" })
        #expect(f.server.requests.count == 4)
        f.server.clearLog()
        let first3 = try ModelStore.using(f.adapter) { try Employee.query().limit(3).pluck(\.name) }
        #expect(first3 == ["e1", "e2", "e3"])

        let capped = try seeded({ $0.pagination.maxPages = 2 }, options: .init(pageSize: 2))
        let error = #expect(throws: RESTError.self) { try ModelStore.using(capped.adapter) { _ = try Employee.all() } }
        #expect(error?.kind == .tooManyPages)
    }

    @Test func countsAndAggregatesComputeOnServerFilteredRows() throws {
        let f = try seeded()
        let (count, sum) = try ModelStore.using(f.adapter) {
            (try Employee.where(\.age > 24).count(), try Employee.where(\.age > 24).sum(\.age))
        }
        #expect(count == 3)
        #expect(sum == 78)
        #expect(f.log.allSatisfy { $0 == "GET /employees?age_gt=24" })
    }
}
