import ArrayAdapter
import Dispatch
import Foundation
import Testing

@Suite struct ConcurrentQueryTests {
    /// Readers run queries and aggregates while writers insert and bulk-update: every read
    /// sees a consistent table (counts never shrink, sums match their rows).
    @Test func queriesRunSafelyBesideWriters() throws {
        let store = ArrayAdapter()
        let problems = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            do {
                if worker < 3 {
                    for k in 0..<200 {
                        try Person.create(["name": .string("w\(worker)-\(k)"), "age": .int(Int64(k % 50)), "score": 1], in: store)
                    }
                    try Person.query(in: store).where(\.age < 10).updateAll(["score": 2])
                } else {
                    var last = 0
                    for _ in 0..<50 {
                        // Inside a transaction the store holds still: the grouped counts add
                        // up to the count.
                        try store.transaction {
                            let total = try Person.query(in: store).count()
                            if total < last { problems.withLock { $0.append("count went down: \(last) → \(total)") } }
                            last = total
                            let grouped = try Person.query(in: store).group(by: "age").count()
                            let sum = grouped.reduce(0) { $0 + (Int(modelValue: $1.value) ?? 0) }
                            if sum != total { problems.withLock { $0.append("groups \(sum) ≠ count \(total)") } }
                        }
                        _ = try Person.query(in: store).where(\.age >= 40).order(by: \.score, .descending).limit(5).all()
                    }
                }
            } catch {
                problems.withLock { $0.append("\(error)") }
            }
        }
        #expect(problems.withLock { $0 }.isEmpty)
        #expect(try Person.query(in: store).count() == 600)
        #expect(try Person.query(in: store).where(\.age < 10).where(\.score == 1.0).count() == 0)
    }
}
