import Foundation
import ModelCore
import ModelQuery

/// The failures every adapter reports as one ``StoreError`` kind: a repeated unique value
/// and a closed store.
enum StoreErrorChecks {
    static func uniqueness(_ c: ConformanceChecker) throws {
        func handle(_ value: String?, _ label: String) throws -> ConformanceHandle {
            let record = ConformanceHandle()
            (record.handle, record.label) = (value, label)
            try record.save()
            return record
        }
        func handles() throws -> [String?] {
            try ConformanceHandle.query().order(by: "label").all().map(\.handle)
        }
        func violation(_ what: String, _ body: () throws -> Void) {
            guard let error = c.expectThrows(StoreError.self, what, body) else { return }
            c.equal(error.kind, .uniqueViolation, "\(what): the kind")
            c.equal(error.table, ConformanceHandle.schema.tableName, "\(what): the table")
            if !c.limitations.contains(.unnamedConstraintColumns) {
                c.equal(error.column, "handle", "\(what): the column")
                c.equal((error as any SwiftModelError).columnName, "handle", "\(what): as SwiftModelError, the column")
            }
            c.expect((error as any SwiftModelError).isConstraintFailure, "\(what): as SwiftModelError, a constraint failure")
            if let engine = error.underlying as? any SwiftModelError {
                c.equal(engine.storeErrorKind ?? .uniqueViolation, .uniqueViolation, "\(what): the engine's own error agrees")
            }
        }
        let a = try handle("x", "a")
        let b = try handle("y", "b")
        let n1 = try handle(nil, "c")
        let n2 = try handle(nil, "d")
        c.equal(try handles(), ["x", "y", nil, nil], "nulls in a unique column never collide")

        // Text is unique by its bytes, as queries compare it: "café" precomposed and
        // decomposed are canonically equivalent in Swift but two values in every store.
        let composed = try handle("caf\u{E9}", "g")
        let decomposed = try handle("cafe\u{301}", "h")
        c.equal(try ConformanceHandle.where("handle").eq("cafe\u{301}").pluck("label"), ["h"], "a unique text column keeps both spellings")
        _ = try composed.delete()
        _ = try decomposed.delete()

        violation("an insert repeating a unique value") { _ = try handle("x", "e") }
        c.equal(try ConformanceHandle.count(), 4, "the refused insert stored nothing")

        b.handle = "x"
        violation("an update repeating a unique value") { try b.save() }
        c.equal(try handles(), ["x", "y", nil, nil], "the refused update left the row as it was")

        let nulls = ConformanceHandle.where("id").in([n1.id, n2.id])
        violation("a batch update giving two rows one unique value") { _ = try nulls.updateAll(["handle": "z"]) }
        if c.hasTransactions("a refused batch update changes no row") {
            c.equal(try handles(), ["x", "y", nil, nil], "the refused batch update changed no row")
        }
        violation("a batch update taking another row's value") {
            _ = try ConformanceHandle.where("id").eq(a.id).updateAll(["handle": "y"])
        }
        c.equal(try ConformanceHandle.where("id").eq(a.id).updateAll(["handle": "x"]), 0, "setting a row's own value is no conflict")

        a.handle = "w"
        try a.save()
        c.equal(try handle("x", "f").handle, "x", "a value freed by an update can be stored again")
        guard c.hasTransactions("a rolled-back insert frees its unique value") else { return }
        struct Undo: Error {}
        c.expectThrows(Undo.self, "a transaction that stores a unique value, then throws") {
            try c.store.transaction {
                _ = try handle("q", "g")
                throw Undo()
            }
        }
        c.equal(try handle("q", "g").handle, "q", "a rolled-back insert freed its unique value")
    }

    static func closing(_ c: ConformanceChecker) throws {
        let store = c.store
        try ConformanceIntItem.create(["label": "before"])
        if c.hasTransactions("close() inside a transaction is refused") {
            let refused = c.expectThrows(StoreError.self, "close() inside a transaction") {
                try store.transaction { try store.close() }
            }
            c.equal(refused?.kind, .invalidRequest, "close() inside a transaction: the kind")
            c.equal(try ConformanceIntItem.count(), 1, "the store still serves after a refused close()")
        }
        let finished = Locked(false)
        if c.hasTransactions("close() waits for a transaction in flight") {
            let started = DispatchSemaphore(value: 0)
            let done = DispatchSemaphore(value: 0)
            let failure = Locked<(any Error)?>(nil)
            Thread {
                do {
                    try ModelStore.using(store) {
                        try store.transaction {
                            started.signal()
                            Thread.sleep(forTimeInterval: 0.2)
                            try ConformanceIntItem.create(["label": "in flight"])
                            finished.withLock { $0 = true }
                        }
                    }
                } catch {
                    failure.withLock { $0 = error }
                }
                done.signal()
            }.start()
            started.wait()
            try store.close()
            c.expect(finished.withLock { $0 }, "close() returned before the transaction in flight ended")
            done.wait()
            c.expect(failure.withLock { $0 } == nil, "the transaction in flight committed: \(String(describing: failure.withLock { $0 }))")
        } else {
            try store.close()
        }
        func refused(_ what: String, _ body: () throws -> Void) {
            let error = c.expectThrows(StoreError.self, "\(what) after close()", body)
            c.equal(error?.kind, .closed, "\(what) after close(): the kind")
        }
        refused("an insert") { _ = try ConformanceIntItem.create(["label": "after"]) }
        refused("a find") { _ = try ConformanceIntItem.find(1) }
        refused("a fetch") { _ = try ConformanceIntItem.query().all() }
        refused("a count") { _ = try ConformanceIntItem.count() }
        refused("a batch delete") { _ = try ConformanceIntItem.query().deleteAll() }
        if c.hasTransactions("a transaction after close()") {
            refused("a transaction") { try store.transaction {} }
        }
        do {
            try store.close()
            c.expect(true, "closing again does nothing")
        } catch {
            c.expect(false, "closing again threw \(error)")
        }
        guard let reopen = c.reopen else { return }
        let reopened = try reopen(store)
        try ModelStore.using(reopened) {
            var expected = ["before"]
            if finished.withLock({ $0 }) { expected.append("in flight") }
            c.equal(try ConformanceIntItem.query().all().map(\.label), expected, "what was committed before close() survives it")
        }
        try reopened.close()
    }
}
