import ArrayAdapter
import Foundation
import Testing

@Suite("Timestamps")
struct TimestampTests {
    @Test func createdOnFirstSaveUpdatedOnEverySave() throws {
        let clock = TestClock()
        try withStore { (_: ArrayAdapter) throws in
            try ModelClock.using(clock.read) {
                let t0 = clock.read()
                let task = Task(name: "a")
                try task.save()
                #expect(task.createdAt == t0)
                #expect(task.updatedAt == t0)
                clock.advance(60)
                task.name = "b"
                try task.save()
                #expect(task.createdAt == t0)
                #expect(task.updatedAt == t0 + 60)
                let stored = try #require(try stored(task))
                #expect(stored.updatedAt == t0 + 60)
                #expect(stored.createdAt == t0)
            }
        }
    }

    @Test func unchangedSaveDoesNotTouchUpdatedAt() throws {
        let clock = TestClock()
        try withStore { (_: ArrayAdapter) throws in
            try ModelClock.using(clock.read) {
                let task = Task(name: "a")
                try task.save()
                clock.advance(5)
                try task.save()
                #expect(task.updatedAt == task.createdAt)
            }
        }
    }

    @Test func callerSuppliedCreatedAtIsKept() throws {
        let clock = TestClock()
        try withStore { (_: ArrayAdapter) throws in
            try ModelClock.using(clock.read) {
                let task = Task(name: "a")
                let past = Date(timeIntervalSince1970: 1)
                task.createdAt = past
                try task.save()
                #expect(task.createdAt == past)
                #expect(task.updatedAt == clock.read())
            }
        }
    }

    @Test func modelCanOptOut() throws {
        try withStore { (_: ArrayAdapter) throws in
            let item = NoTimestamps()
            item.createdAt = "hand-written"
            try item.save()
            #expect(item.createdAt == "hand-written")
        }
    }
}

/// The process-wide clock is read in constant depth however often it is read: it was kept
/// in `Locked<() -> Date>`, where every read re-wrapped the function in two more
/// reabstraction thunks, so the thousandth `now()` ran through 2,000 of them (a server's
/// saves got slower for as long as it ran).
@Test func readingTheClockDoesNotWrapItAgain() {
    // A private process-wide clock: tests running beside this one keep the process's.
    ModelClock.withPrivateSettings {
        let depths = Locked<[Int]>([])
        ModelClock.set {
            depths.withLock { $0.append(Thread.callStackReturnAddresses.count) }
            return Date()
        }
        for _ in 0..<1_000 { _ = ModelClock.now() }
        let seen = depths.withLock { $0 }
        #expect(seen.count == 1_000)
        #expect(seen.first == seen.last, "stack depth at the first and last read: \(seen.first ?? 0), \(seen.last ?? 0)")
    }
}
