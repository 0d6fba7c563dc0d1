import Dispatch
import Foundation
import SQLiteAdapter
import Synchronization
import Testing

@Suite struct SQLiteConcurrencyTests {
    @Test func readersRunDuringAWriteAndSeeOnlyCommittedState() throws {
        try withTemporaryDirectory { dir in
            let store = try SQLiteAdapter(path: dir.appendingPathComponent("c.sqlite").path)
            try store.prepare(MemoV1.schema)
            let inside = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let writerDone = DispatchSemaphore(value: 0)
            let failure = Locked<String?>(nil)
            let writerSaw = Locked<Int?>(nil)
            DispatchQueue.global().async {
                do {
                    try store.withTransaction {
                        for k in 0..<50 { try MemoV1.create(["title": .string("w\(k)")], in: store) }
                        // Recorded here and checked on the test's thread (an #expect on a
                        // dispatch thread has no test to report to).
                        writerSaw.withLock { $0 = try? MemoV1.count(in: store) }
                        inside.signal()
                        release.wait()
                    }
                } catch {
                    failure.withLock { $0 = "\(error)" }
                }
                writerDone.signal()
            }
            inside.wait()
            // The transaction is open and holds the write lock: reads still run, unblocked.
            #expect(try MemoV1.count(in: store) == 0)
            #expect(try MemoV1.where(\.title == "w1").using(store).all().isEmpty)
            release.signal()
            writerDone.wait()
            #expect(failure.withLock { $0 } == nil)
            #expect(writerSaw.withLock { $0 } == 50, "the writer sees its own rows")
            #expect(try MemoV1.count(in: store) == 50)
        }
    }

    /// A table first used inside a transaction is the transaction's until it commits:
    /// a reader on another thread waits for the commit instead of querying a table its
    /// connection cannot see yet (`no such table`), and after a rollback the table is
    /// prepared again.
    @Test(arguments: [true, false]) func aTableCreatedInsideATransactionIsItsOwnUntilItEnds(commits: Bool) throws {
        try withTemporaryDirectory { dir in
            let store = try SQLiteAdapter(path: dir.appendingPathComponent("t.sqlite").path)
            let outside = Locked<Result<Int, any Error>?>(nil)
            let readerDone = DispatchSemaphore(value: 0)
            struct Undo: Error {}
            do {
                try store.withTransaction {
                    _ = try MemoV1.create(["title": "inside"], in: store)
                    DispatchQueue.global().async {
                        let counted = Result { try MemoV1.count(in: store) }
                        outside.withLock { $0 = counted }
                        readerDone.signal()
                    }
                    // Give the reader time to reach the table before the transaction ends.
                    Thread.sleep(forTimeInterval: 0.1)
                    #expect(outside.withLock { $0 } == nil)
                    if !commits { throw Undo() }
                }
            } catch is Undo {}
            readerDone.wait()
            let counted = try #require(outside.withLock { $0 })
            #expect(try counted.get() == (commits ? 1 : 0))
            #expect(try MemoV1.count(in: store) == (commits ? 1 : 0))
            _ = try MemoV1.create(["title": "after"], in: store)
            #expect(try MemoV1.count(in: store) == (commits ? 2 : 1))
        }
    }

    @Test func mixedLoadKeepsEveryInvariant() throws {
        try withTemporaryDirectory { dir in
            let store = try SQLiteAdapter(path: dir.appendingPathComponent("load.sqlite").path)
            try store.prepare(MemoV1.schema)
            let writers = 4, batches = 10, batch = 20
            let problems = Locked<[String]>([])
            let writing = Atomic<Int>(writers)
            DispatchQueue.concurrentPerform(iterations: writers + 3) { worker in
                do {
                    if worker < writers {
                        for b in 0..<batches {
                            try store.withTransaction {
                                for k in 0..<batch {
                                    try MemoV1.create(["title": .string("\(worker)-\(b)-\(k)")], in: store)
                                }
                            }
                        }
                        writing.subtract(1, ordering: .relaxed)
                    } else {
                        var last = 0
                        while writing.load(ordering: .relaxed) > 0 {
                            let n = try MemoV1.count(in: store)
                            if n % batch != 0 { problems.withLock { $0.append("saw a partial batch: \(n)") } }
                            if n < last { problems.withLock { $0.append("count went back: \(last) → \(n)") } }
                            last = n
                        }
                    }
                } catch {
                    problems.withLock { $0.append("\(error)") }
                }
            }
            #expect(problems.withLock { $0 } == [])
            let titles = try MemoV1.all(in: store).map(\.title)
            #expect(titles.count == writers * batches * batch)
            #expect(Set(titles).count == titles.count)  // nothing lost or duplicated
            let ids = try MemoV1.all(in: store).compactMap(\.id)
            #expect(Set(ids).count == ids.count)
        }
    }
}
