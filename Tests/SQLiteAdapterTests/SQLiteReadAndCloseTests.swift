import Dispatch
import Foundation
import SQLiteAdapter
import TestSupport
import Testing

/// `read { }` (one snapshot, no write lock) and `close()`.
@Suite struct SQLiteReadAndCloseTests {
    private func seed(_ store: SQLiteAdapter, _ count: Int) throws {
        try store.transaction { for k in 0..<count { try Citizen.create(["name": .string("c\(k)")], in: store) } }
    }

    @Test func aReadBlockSeesOneSnapshotWhileAnotherThreadWrites() throws {
        try withTemporaryDirectory { directory in
            let store = try SQLiteAdapter(path: directory.appendingPathComponent("snap.sqlite").path)
            try seed(store, 3)
            let inside = DispatchSemaphore(value: 0), written = DispatchSemaphore(value: 0)
            let writerDone = Locked<Bool>(false)
            DispatchQueue.global().async {
                inside.wait()
                // The read block holds no write lock: this commits while it is open.
                _ = try? Citizen.create(["name": "late"], in: store)
                writerDone.withLock { $0 = true }
                written.signal()
            }
            let (before, after) = try store.read {
                let first = try Citizen.count(in: store)
                inside.signal()
                written.wait()
                return (first, try Citizen.query(in: store).all().count)
            }
            #expect(writerDone.withLock { $0 }, "the writer finished while the read block was open")
            #expect(before == 3 && after == 3, "both reads saw the snapshot")
            #expect(try Citizen.count(in: store) == 4, "after the block, the new row is visible")
        }
    }

    @Test(arguments: [true, false]) func writesAndTransactionsInsideAReadBlockAreRefused(wal: Bool) throws {
        try withTemporaryDirectory { directory in
            var configuration = SQLiteConfiguration()
            if !wal { configuration.journalMode = .delete }
            let store = try SQLiteAdapter(path: directory.appendingPathComponent("ro.sqlite").path, configuration: configuration)
            try seed(store, 2)
            let error = #expect(throws: StoreError.self) {
                try store.read { try Citizen.create(["name": "nope"], in: store) }
            }
            #expect(error?.kind == .invalidRequest)
            #expect(throws: StoreError.self) { try store.read { try store.transaction { } } }
            #expect(throws: StoreError.self) { try store.read { try store.execute("DELETE FROM citizens") } }
            #expect(try store.read { try Citizen.count(in: store) } == 2, "nothing was written")
            // Nested blocks join; a read block inside a transaction just runs.
            #expect(try store.read { try store.read { try Citizen.count(in: store) } } == 2)
            try store.transaction {
                try Citizen.create(["name": "third"], in: store)
                #expect(try store.read { try Citizen.count(in: store) } == 3, "sees the open transaction")
            }
        }
    }

    @Test func closeReleasesTheFileAndRefusesLaterCalls() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("closing.sqlite").path
            let store = try SQLiteAdapter(path: path)
            try seed(store, 2)
            let loaded = try #require(try Citizen.find(1, in: store))
            #expect(throws: StoreError.self) { try store.transaction { try store.close() } }
            #expect(!store.isClosed, "a refused close closes nothing")
            try store.close()
            try store.close()  // idempotent
            #expect(store.isClosed)
            let error = #expect(throws: StoreError.self) { _ = try Citizen.count(in: store) }
            #expect(error?.kind == .closed && error?.message.contains("closed") == true)
            #expect(throws: StoreError.self) { _ = try Citizen.find(1, in: store) }
            #expect(throws: StoreError.self) { try store.transaction { } }
            #expect(throws: StoreError.self) { try store.read { } }
            loaded.name = "changed"
            #expect(throws: StoreError.self) { try loaded.save() }
            #expect(loaded.name == "changed" && loaded.isDirty, "the record keeps its state")
            // The file is complete and free: it can be moved and opened again.
            let moved = directory.appendingPathComponent("moved.sqlite").path
            try FileManager.default.moveItem(atPath: path, toPath: moved)
            let reopened = try SQLiteAdapter(path: moved)
            #expect(try Citizen.count(in: reopened) == 2)
        }
    }

    /// Six threads share two readers: at most two read blocks run at once, and no reader
    /// is lent to two threads together (a second `BEGIN` on a connection in a read
    /// transaction would fail the block).
    @Test func moreThreadsThanReadersTakeTurns() throws {
        try withTemporaryDirectory { directory in
            var configuration = SQLiteConfiguration()
            configuration.readerCount = 2
            let store = try SQLiteAdapter(path: directory.appendingPathComponent("turns.sqlite").path, configuration: configuration)
            try seed(store, 20)
            let inside = Locked((now: 0, most: 0))
            let failures = Locked<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 6) { _ in
                for _ in 0..<100 {
                    do {
                        let count = try store.read { () throws -> Int in
                            inside.withLock {
                                $0.now += 1
                                $0.most = max($0.most, $0.now)
                            }
                            defer { inside.withLock { $0.now -= 1 } }
                            return try Citizen.count(in: store)
                        }
                        if count != 20 { failures.withLock { $0.append("counted \(count)") } }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
            }
            #expect(failures.withLock { $0 }.isEmpty)
            #expect(inside.withLock { $0.most } <= 2)
            try store.close()
            #expect(throws: StoreError.self) { try store.read { try Citizen.count(in: store) } }
        }
    }

    @Test func closeWaitsForReadsInProgress() throws {
        try withTemporaryDirectory { directory in
            let store = try SQLiteAdapter(path: directory.appendingPathComponent("busy.sqlite").path)
            try seed(store, 50)
            let started = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
            let counted = Locked<Int?>(nil)
            DispatchQueue.global().async {
                let value = try? store.read { () throws -> Int in
                    started.signal()
                    Thread.sleep(forTimeInterval: 0.05)
                    return try Citizen.count(in: store)
                }
                counted.withLock { $0 = value }
                finished.signal()
            }
            started.wait()
            try store.close()
            finished.wait()
            #expect(counted.withLock { $0 } == 50, "the read in progress completed before the close")
        }
    }
}
