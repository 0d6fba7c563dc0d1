import Foundation
import PostgresAdapter
import TestSupport
import Testing

/// Async writes PostgreSQL refuses leave the record as it was before the save, timestamps
/// included (the async API's own tests run on the embedded adapters).
@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipReason), .runsOffThePool)
struct PostgresAsyncWriteTests {
    @Test func aFailedAsyncInsertRestoresThePreSaveState() async throws {
        let store = try PostgresTestServer.store()
        defer { try? store.close() }
        try await PgTicket.create(["code": "A1"], in: store)
        let twin = PgTicket()
        twin.code = "A1"
        let error = await #expect(throws: StoreError.self) { try await twin.save(to: store) }
        #expect(error?.kind == .uniqueViolation && error?.underlying is PostgresError)
        #expect(twin.isNew && twin.id == nil && twin.createdAt == nil && twin.updatedAt == nil)
        #expect(twin.isDirty && twin.code == "A1")
        #expect(try await PgTicket.count(in: store) == 1)
    }

    @Test func aFailedAsyncUpdateRestoresThePreSaveState() async throws {
        let store = try PostgresTestServer.store()
        defer { try? store.close() }
        try await PgTicket.create(["code": "A1"], in: store)
        let other = try await PgTicket.create(["code": "B2"], in: store)
        let stamped = other.updatedAt
        try await Task.sleep(for: .milliseconds(2))
        other.code = "A1"
        let error = await #expect(throws: StoreError.self) { try await other.save() }
        #expect(error?.kind == .uniqueViolation && error?.column == "code")
        #expect(other.updatedAt == stamped && other.isDirty && other.code == "A1")
        #expect(try await PgTicket.find(other.id ?? -1, in: store)?.code == "B2")
    }
}
