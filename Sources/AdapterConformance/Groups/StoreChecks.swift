import Dispatch
import Foundation
import ModelCore
import ModelQuery

/// Persistence across reopening, and concurrent use.
enum StoreChecks {
    static func persistence(_ c: ConformanceChecker) throws {
        guard let reopen = c.reopen else { return }
        try ConformancePerson.seed()
        for sample in RecordChecks.samples() { try sample.save() }
        try RelationChecks.family("ann")
        try ConformancePerson.where(\.age < 20).deleteAll()
        let before = try ConformancePerson.query().all().map(\.attributes)
        let samples = try c.store.fetch(StoreQuery(schema: ConformanceSample.schema))
        let reopened = try reopen(c.store)
        try ModelStore.using(reopened) {
            c.equal(try ConformancePerson.query().all().map(\.attributes), before, "rows survive reopening")
            c.equal(try reopened.fetch(StoreQuery(schema: ConformanceSample.schema)), samples, "every type survives reopening")
            c.equal(try ConformanceOwner.query().first()?.pets.count(), 2, "relations survive reopening")
            let next = try ConformancePerson.create(["name": "next"])
            c.equal(next.id, 12, "ids continue above the largest ever assigned (10 and 11 were deleted)")
        }
    }

    static func concurrency(_ c: ConformanceChecker) throws {
        let store = c.store
        let writers = 4, batches = 20, batchSize = 5
        let problems = Locked<[String]>([])
        let atomicBatches = c.hasTransactions("readers see whole transactions only")
        DispatchQueue.concurrentPerform(iterations: writers + 2) { worker in
            do {
                try ModelStore.using(store) {
                    if worker >= writers {
                        // Readers: whole batches only, counts never go down.
                        var last = 0
                        for _ in 0..<60 {
                            let count = try ConformanceIntItem.count()
                            let rows = try ConformanceIntItem.query().all().count
                            if (count % batchSize != 0 && atomicBatches) || count < last {
                                problems.withLock { $0.append("reader saw \(count) rows after \(last)") }
                            }
                            if rows < count { problems.withLock { $0.append("fetch returned \(rows) of \(count)") } }
                            last = count
                            _ = try ConformanceIntItem.where("label").beginsWith("w1").count()
                        }
                        return
                    }
                    for batch in 0..<batches {
                        try store.transaction {
                            for k in 0..<batchSize {
                                try ConformanceIntItem.create(["label": .string("w\(worker) b\(batch) \(k)")])
                            }
                        }
                        if batch % 5 == 4 {
                            let mine = try ConformanceIntItem.where("label").beginsWith("w\(worker) b\(batch) ").all()
                            for item in mine {
                                item.label += " updated"
                                try item.save()
                            }
                        }
                    }
                }
            } catch {
                problems.withLock { $0.append("worker \(worker): \(error)") }
            }
        }
        for problem in problems.withLock({ $0 }) { c.expect(false, problem) }
        let labels = try ConformanceIntItem.query().pluck(\.label)
        c.equal(labels.count, writers * batches * batchSize, "every committed row is there")
        c.equal(Set(labels).count, labels.count, "no row duplicated")
        c.equal(labels.filter { $0.hasSuffix(" updated") }.count, writers * 4 * batchSize, "every update landed")
        let ids = try ConformanceIntItem.query().pluck("id")
        c.equal(Set(ids).count, ids.count, "ids unique under concurrency")
    }
}
