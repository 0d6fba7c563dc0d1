import Foundation
import PostgresAdapter
import TestSupport
import Testing

/// Pipelined writes inside transactions: a record's insert, update or delete is sent
/// without waiting, and its failure — as the error it would have thrown — comes from the
/// next call that reads results, never lost; rollback restores every record.
@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipReason), .runsOffThePool)
struct PostgresPipelineTests {
    struct Failure: Error {}

    /// The codes stored, sorted.
    static func codes(_ store: PostgresAdapter) throws -> [String] {
        try PgTicket.all(in: store).map(\.code).sorted()
    }

    @Test func aWriteInATransactionReturnsBeforeItsResultAndFlushThrowsItsFailure() throws {
        let store = try PostgresTestServer.store()
        _ = try PgTicket.create(["code": "A"], in: store)
        let duplicate = PgTicket()
        duplicate.code = "A"
        let error = #expect(throws: StoreError.self) {
            try store.transaction {
                _ = try PgTicket.create(["code": "B"], in: store)
                let sent = Result { try duplicate.save(to: store) }  // sent, not yet answered
                #expect(sent.failure == nil && duplicate.id != nil)
                try store.flush()
                Issue.record("flush did not throw the duplicate's violation")
            }
        }
        #expect(error?.kind == .uniqueViolation)
        #expect(error?.table == PgTicket.schema.tableName)
        #expect(duplicate.id == nil && duplicate.isNew)  // restored by the rollback
        #expect(try Self.codes(store) == ["A"])
    }

    @Test func aFailureSurfacesAtTheNextReadAndAtCommit() throws {
        let store = try PostgresTestServer.store()
        _ = try PgTicket.create(["code": "A"], in: store)
        let atRead = #expect(throws: StoreError.self) {
            try store.transaction {
                _ = try PgTicket.create(["code": "A"], in: store)
                _ = try PgTicket.count(in: store)
            }
        }
        #expect(atRead?.kind == .uniqueViolation)
        let atCommit = #expect(throws: StoreError.self) {
            try store.transaction { _ = try PgTicket.create(["code": "A"], in: store) }
        }
        #expect(atCommit?.kind == .uniqueViolation)
        #expect(try Self.codes(store) == ["A"])
    }

    /// An async transaction whose commit fails (the pipelined insert's violation arrives
    /// with the COMMIT) throws it and restores the records — once: it used to roll the
    /// already-ended level back again and trap.
    @Test func anAsyncTransactionWhoseCommitFailsThrowsAndRestores() async throws {
        let store = try PostgresTestServer.store()
        _ = try await PgTicket.create(["code": "A"], in: store)
        let error = await #expect(throws: StoreError.self) {
            try await store.transaction { _ in
                _ = try await PgTicket.create(["code": "B"], in: store)
                _ = try await PgTicket.create(["code": "A"], in: store)
            }
        }
        #expect(error?.kind == .uniqueViolation)
        #expect(try await PgTicket.count(in: store) == 1)
        // The store goes on working.
        try await store.transaction { _ in _ = try await PgTicket.create(["code": "C"], in: store) }
        #expect(try await PgTicket.count(in: store) == 2)
    }

    @Test func aFailureIsThrownByTheWriteThatFillsThePipelineOrReservesIDs() throws {
        let store = try PostgresTestServer.store()
        let tickets = try store.transaction { try (0..<600).map { try PgTicket.create(["code": .string("c\($0)")], in: store) } }
        var thrownAt: Int?
        #expect(throws: StoreError.self) {
            try store.transaction {
                for (k, ticket) in tickets.enumerated() {
                    ticket.code = k == 10 ? "c599" : "changed \(k)"
                    do {
                        try ticket.save()
                    } catch {
                        thrownAt = k
                        throw error
                    }
                }
            }
        }
        #expect(thrownAt == 511)  // the 512th waiting write settles the pipeline
        // Inserts reserve ids in blocks (16 first, per adapter): reserving the next block
        // reads results.
        thrownAt = nil
        let fresh = try PostgresAdapter(store.configuration)
        #expect(throws: StoreError.self) {
            try fresh.transaction {
                for k in 0..<100 {
                    do {
                        _ = try PgTicket.create(["code": .string(k == 3 ? "c599" : "new \(k)")], in: fresh)
                    } catch {
                        thrownAt = k
                        throw error
                    }
                }
            }
        }
        #expect(thrownAt == 16)
        #expect(try PgTicket.count(in: store) == 600)
    }

    @Test func aFailedWriteInANestedTransactionRollsBackOnlyThatLevel() throws {
        let store = try PostgresTestServer.store()
        _ = try PgTicket.create(["code": "A"], in: store)
        let duplicate = PgTicket()
        duplicate.code = "A"
        try store.transaction {
            _ = try PgTicket.create(["code": "before"], in: store)
            let nested = #expect(throws: StoreError.self) {
                try store.transaction {
                    _ = try PgTicket.create(["code": "inside"], in: store)
                    try duplicate.save(to: store)
                }
            }
            #expect(nested?.kind == .uniqueViolation)
            _ = try PgTicket.create(["code": "after"], in: store)
        }
        #expect(duplicate.id == nil)
        #expect(try Self.codes(store) == ["A", "after", "before"])
    }

    @Test func anUpdateOrDeleteOfARowDeletedElsewhereFailsWhenRead() throws {
        let store = try PostgresTestServer.store()
        let other = try PostgresAdapter(store.configuration)
        let updated = try PgTicket.create(["code": "u"], in: store)
        let deleted = try PgTicket.create(["code": "d"], in: store)
        for ticket in [updated, deleted] { #expect(try PgTicket.delete(id: ticket.id ?? -1, in: other)) }

        let update = #expect(throws: StoreError.self) {
            try store.transaction {
                updated.code = "changed"
                try updated.save()
                try store.flush()
            }
        }
        #expect(update?.kind == .notFound)
        #expect(updated.code == "changed" && !updated.isNew)  // as before the save
        let delete = #expect(throws: ModelError.self) {
            try store.transaction {
                try deleted.delete()
                try store.flush()
            }
        }
        #expect(delete?.kind == .recordNotFound)
        #expect(!deleted.isNew)
    }

    @Test func commitAfterACaughtFailureRollsBackWithATypedError() throws {
        let store = try PostgresTestServer.store()
        _ = try PgTicket.create(["code": "A"], in: store)
        let error = #expect(throws: PostgresError.self) {
            try store.transaction {
                _ = try PgTicket.create(["code": "A"], in: store)
                let flushed = Result { try store.flush() }  // caught: the transaction is aborted
                #expect((flushed.failure as? StoreError)?.kind == .uniqueViolation)
                _ = try? PgTicket.create(["code": "B"], in: store)
            }
        }
        #expect(error?.kind == .transactionAborted)
        #expect(try Self.codes(store) == ["A"])
    }

    @Test func reservedIDsAreUniqueAcrossAdaptersAndBesideGeneratedOnes() throws {
        let store = try PostgresTestServer.store()
        let other = try PostgresAdapter(store.configuration)
        let ids = Locked<[Int64]>([])
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            let adapter = worker % 2 == 0 ? store : other
            do {
                for batch in 0..<5 {
                    let created = try adapter.transaction {
                        try (0..<100).map { k in
                            try PgTicket.create(["code": .string("w\(worker)-\(batch)-\(k)")], in: adapter).id ?? -1
                        }
                    }
                    let outside = try PgTicket.create(["code": .string("w\(worker)-\(batch)-outside")], in: adapter).id ?? -1
                    ids.withLock { $0 += created + [outside] }
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let all = ids.withLock { $0 }
        #expect(all.count == 2_020 && Set(all).count == all.count && !all.contains(-1))
        #expect(Set(try PgTicket.all(in: store).compactMap(\.id)) == Set(all))
    }

    @Test func aRolledBackPipelineStoresNothingAndTheConnectionIsReused() throws {
        let store = try PostgresTestServer.store { $0.maximumConnections = 1 }
        let tickets = (0..<300).map { k in
            let ticket = PgTicket()
            ticket.code = "r\(k)"
            return ticket
        }
        #expect(throws: Failure.self) {
            try store.transaction {
                for ticket in tickets { try ticket.save(to: store) }
                throw Failure()
            }
        }
        #expect(tickets.allSatisfy { $0.id == nil && $0.isNew })
        #expect(try PgTicket.count(in: store) == 0)
        _ = try PgTicket.create(["code": "next"], in: store)  // the one connection, out of pipeline mode
        #expect(try Self.codes(store) == ["next"])
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
