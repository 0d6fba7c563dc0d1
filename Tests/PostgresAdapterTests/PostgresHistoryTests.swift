import Foundation
import ModelCore
import PostgresAdapter
import TestSupport
import Testing

/// PostgreSQL's change history under concurrent writers: cursors follow the order in
/// which commits become visible, so a reader that has read up to a cursor never misses a
/// change that commits later (the conformance suite's `history` group checks the rest).
@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipReason), .runsOffThePool)
struct PostgresHistoryTests {
    final class PgJournal: Model {
        static var keepsHistory: Bool { true }
        @Column var title = ""
        init() {}
    }

    @Test func aTransactionThatWroteFirstButCommitsLastGetsTheLaterCursor() throws {
        let store = try PostgresTestServer.store()
        defer { try? store.close() }
        try store.prepare(PgJournal.schema)
        let start = try store.historyHead()
        let (written, release, finished) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let failure = Locked<(any Error)?>(nil)
        let slow = Thread {
            do {
                try store.transaction {
                    try PgJournal.create(["title": "first written"], in: store)
                    written.signal()
                    release.wait()  // holds its transaction open while another commits
                }
            } catch {
                failure.withLock { $0 = error }
                written.signal()
            }
            finished.signal()
        }
        slow.start()
        written.wait()
        try PgJournal.create(["title": "committed first"], in: store)
        let seen = try PgJournal.history(after: start, in: store)
        #expect(seen.entries.count == 1, "the open transaction's entry is not visible yet")
        release.signal()
        finished.wait()
        #expect(failure.withLock { $0 } == nil)
        let later = try PgJournal.history(after: seen.next, in: store)
        #expect(later.entries.count == 1, "the change committed last comes after the reader's cursor")
        #expect(later.entries.first.map { $0.cursor > seen.next } == true)
        let all = try PgJournal.history(after: start, in: store).entries.map(\.id)
        #expect(all.count == 2 && all[0] != all[1])
    }

    @Test func manyConcurrentWritersLoseNoEntryToAFollowingReader() throws {
        let store = try PostgresTestServer.store { $0.maximumConnections = 8 }
        defer { try? store.close() }
        try store.prepare(PgJournal.schema)
        let start = try store.historyHead()
        let writers = 6, each = 20
        let stop = Locked(false)
        let seen = Locked(0)
        let failures = Locked<[String]>([])
        let done = DispatchGroup()
        // A reader follows the history while the writers run, page by page from its cursor
        // (threads of their own: every call here blocks).
        done.enter()
        Thread {
            defer { done.leave() }
            var cursor = start
            do {
                while true {
                    let finished = stop.withLock { $0 }
                    let page = try PgJournal.history(after: cursor, limit: 7, in: store)
                    seen.withLock { $0 += page.entries.count }
                    cursor = page.next
                    if finished && !page.hasMore && page.entries.isEmpty { return }
                }
            } catch {
                failures.withLock { $0.append("reader: \(error)") }
            }
        }.start()
        let writing = DispatchGroup()
        for w in 0..<writers {
            writing.enter()
            Thread {
                defer { writing.leave() }
                do {
                    for k in 0..<each {
                        try store.transaction {
                            try PgJournal.create(["title": .string("w\(w) k\(k) a")], in: store)
                            try PgJournal.create(["title": .string("w\(w) k\(k) b")], in: store)
                        }
                    }
                } catch {
                    failures.withLock { $0.append("writer \(w): \(error)") }
                }
            }.start()
        }
        writing.wait()
        stop.withLock { $0 = true }
        done.wait()
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        #expect(seen.withLock { $0 } == writers * each * 2, "every committed entry reached the following reader once")
        let cursors = try PgJournal.history(after: start, in: store).entries.map(\.cursor.rawValue)
        #expect(cursors == cursors.sorted() && Set(cursors).count == cursors.count)
        // Each transaction's two entries are consecutive.
        #expect(stride(from: 0, to: cursors.count - 1, by: 2).allSatisfy { cursors[$0 + 1] == cursors[$0] + 1 })
    }
}
