import Foundation
import ModelCore
import RESTAdapter
import RESTTestServer
import Testing

/// `close()` on a REST adapter: requests in flight finish, later calls are refused.
@Suite struct RESTCloseTests {
    @Test func closeWaitsForARequestInFlightThenRefusesEveryCall() throws {
        let f = try RESTFixture { $0.retry = .none }
        f.server.seed("companies", [["name": "Acme"]])
        f.server.inject(.delay(.milliseconds(400)))
        let adapter = f.adapter
        let found = Locked<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            found.withLock { $0 = (try? Company.find(1, in: adapter))??.name }
            done.signal()
        }.start()
        while f.server.requests.isEmpty { usleep(5_000) }  // the request is in flight
        try f.adapter.close()
        #expect(found.withLock { $0 } == "Acme", "close() returned after the request in flight had its answer")
        done.wait()
        let error = #expect(throws: StoreError.self) { try Company.find(1, in: f.adapter) }
        #expect(error?.kind == .closed)
        #expect(f.server.requests.count == 1, "nothing is sent after close()")
        try f.adapter.close()  // closing again does nothing
    }

    @Test func a409IsAUniqueViolationUnlessAnIDWasSent() throws {
        let f = try RESTFixture(options: .init(uniqueFields: ["companies": ["name"]]))
        try Company.create(["name": "Acme"], in: f.adapter)
        let clash = #expect(throws: StoreError.self) { try Company.create(["name": "Acme"], in: f.adapter) }
        #expect(clash?.kind == .uniqueViolation && clash?.table == Company.schema.tableName)
        #expect((clash?.underlying as? RESTError)?.status == 409, "the server's answer stays attached")
        #expect((clash?.underlying as? any SwiftModelError)?.modelName == "Company")
        let other = try Company.create(["name": "Other"], in: f.adapter)
        other.name = "Acme"
        let update = #expect(throws: StoreError.self) { try other.save() }
        #expect(update?.kind == .uniqueViolation)
        let twin = Company()
        twin.id = 1
        twin.name = "Twin"
        #expect(throws: StoreError.self) { try twin.save(to: f.adapter) }
    }
}
