import Dispatch
import Foundation
@testable import ModelCore
import Testing

/// A model only this file makes, with a count of the instances that ended.
final class Mortal: Model {
    @Column var rank: Int = 0
    init() {}
    deinit { Mortal.ended.withLock { $0 += 1 } }

    static let ended = Locked(0)
}

/// ``WeakRecord``: a reference that does not keep its record alive, like `weak`, without
/// giving the record a side table, and that never hands out a record that has begun to end.
/// (``WeakRegistry``, its twin for contexts, is tested with them: ContextIdentityTests.)
@Suite("Weak references", .serialized)
struct WeakReferencesTests {
    @Test func itReadsTheRecordWhileItLivesAndNilAfter() throws {
        var record: Mortal? = Mortal()
        let reference = WeakRecord(try #require(record))
        #expect(reference.record === record)
        #expect(reference.refers(to: try #require(record)) && !reference.refers(to: Mortal()))
        record = nil
        #expect(reference.record == nil)
        #expect(reference.record == nil, "and stays nil")
    }

    /// The reference counts in the record's header: no side table, whose weak count the
    /// runtime would report above 1.
    @Test func itGivesTheRecordNoSideTable() {
        let record = Mortal()
        let before = _getUnownedRetainCount(record)
        let references = [WeakRecord(record), WeakRecord(record)]
        #expect(_getWeakRetainCount(record) == 1)
        #expect(_getUnownedRetainCount(record) == before + 2)
        #expect(references.allSatisfy { $0.record === record })
        #expect(_getWeakRetainCount(record) == 1, "a read forms none either")
    }

    /// One thread drops the record's last strong reference while another reads it through
    /// the reference: each read gets either nothing or a record that has not begun to end
    /// (one retained during or after its deinit would end twice, or stop the process), and
    /// every record ends exactly once, with the reference reading nil after. (A check of
    /// liveness followed by a plain retain passes here too: its window is a few
    /// instructions wide. What the test does catch is a read that does not check at all,
    /// and, under Thread Sanitizer, memory freed under a reader.)
    @Test func aReadRacingTheLastReleaseNeverRevivesTheRecord() {
        let rounds = 1_000
        _ = Mortal().rank  // the schema, made once (from an instance of its own)
        let before = Mortal.ended.withLock { $0 }
        let reads = Locked(0)
        for _ in 0..<rounds {
            let (owner, reference) = Self.heldOnce()
            let reading = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
            // A thread of its own, so the reader runs beside the release even when the
            // test pool is busy.
            let reader = Thread {
                var signalled = false
                for _ in 0..<2_000 {
                    guard let read = reference.withLock({ $0.record }) as? Mortal else { break }
                    // Held strongly here: it has not ended, and it still reads and writes.
                    read.rank += 1
                    reads.withLock { $0 += 1 }
                    if !signalled { reading.signal() }
                    signalled = true
                }
                if !signalled { reading.signal() }
                done.signal()
            }
            reader.start()
            reading.wait()
            // The last strong reference goes while the reader keeps reading.
            owner.withLock { $0 = nil }
            done.wait()
            #expect(reference.withLock { $0.record } == nil)
        }
        #expect(Mortal.ended.withLock { $0 } - before == rounds)
        #expect(reads.withLock { $0 } >= rounds, "the reader met a live record every round")
    }

    /// A new record held by `owner` alone (no local keeps it past this call), and a weak
    /// reference to it.
    static func heldOnce() -> (owner: Locked<Mortal?>, reference: Locked<WeakRecord>) {
        let record = Mortal()
        return (Locked(record), Locked(WeakRecord(record)))
    }
}
