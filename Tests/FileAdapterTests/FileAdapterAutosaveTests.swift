import FileAdapter
import Foundation
import Testing

/// Autosave, explicit saves under concurrent writers, and saves inside transactions.
@Suite struct FileAdapterAutosaveTests {
    private func autosaving(_ milliseconds: Int) -> FileAdapterConfiguration {
        var options = FileAdapterConfiguration()
        options.autosave = .afterCommit(coalescing: .milliseconds(milliseconds))
        return options
    }

    /// Polls until `condition` holds (at most 10 s).
    private func eventually(_ condition: () throws -> Bool) rethrows -> Bool {
        for _ in 0..<1000 {
            if try condition() { return true }
            usleep(10_000)
        }
        return false
    }

    private func titles(in url: URL) throws -> [String] {
        try FileAdapter(file: url, configuration: explicitSaves).fetch(StoreQuery(schema: Jot.schema)).compactMap {
            $0[Jot.schema.index(ofColumn: "title") ?? 0].stringValue
        }
    }

    @Test func commitsAreSavedCoalescedAndInOrder() throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("auto.archive")
            let store = try FileAdapter(file: url, configuration: autosaving(200))
            for k in 0..<50 { try Jot.create(["title": .string("jot \(k)")], in: store) }
            #expect(eventually { store.filesWritten.load(ordering: .relaxed) >= 1 })
            #expect(try eventually { try titles(in: url).count == 50 })
            #expect(store.filesWritten.load(ordering: .relaxed) < 10, "50 commits within the window are coalesced")
            #expect(store.lastAutosaveError == nil)
        }
    }

    @Test func uncommittedWritesAreNotSaved() throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("auto.archive")
            let store = try FileAdapter(file: url, configuration: autosaving(1))
            try Jot.create(["title": "committed"], in: store)
            try store.flush()
            try store.transaction {
                try Jot.create(["title": "pending"], in: store)
                usleep(100_000)
                #expect(try titles(in: url) == ["committed"])
                #expect(throws: StoreError.self) { try store.save() }
                #expect(throws: StoreError.self) { try store.flush() }
            }
            #expect(try eventually { try titles(in: url) == ["committed", "pending"] })
            #expect(throws: MigrationRefused.self) {
                try store.transaction {
                    try Jot.create(["title": "rolled back"], in: store)
                    throw MigrationRefused()
                }
            }
            try store.flush()
            #expect(try titles(in: url) == ["committed", "pending"])
        }
    }

    @Test func failedAutosavesAreReportedAndRetried() throws {
        guard getuid() != 0 else { return }  // root ignores permissions
        try withTemporaryDirectory { directory in
            let reported = Locked(0)
            var options = autosaving(1)
            options.onAutosaveError = { _ in reported.withLock { $0 += 1 } }
            let locked = directory.appendingPathComponent("locked")
            try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
            let url = locked.appendingPathComponent("auto.archive")
            let store = try FileAdapter(file: url, configuration: options)
            try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: locked.path)
            try Jot.create(["title": "waiting"], in: store)
            #expect(eventually { reported.withLock { $0 } >= 1 })
            #expect((store.lastAutosaveError as? ArchiveError)?.kind == .io)
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: locked.path)
            try store.flush()
            #expect(try titles(in: url) == ["waiting"])
        }
    }

    @Test func savesUnderConcurrentWritersSeeWholeTransactions() throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("busy.archive")
            let store = try FileAdapter(file: url, configuration: explicitSaves)
            let batches = 25, batchSize = 8, writers = 4
            let snapshotsChecked = Locked(0)
            let problems = Locked<[String]>([])
            DispatchQueue.concurrentPerform(iterations: writers + 1) { worker in
                do {
                    if worker == writers {
                        // The saver: save, reopen, check whole batches only.
                        for _ in 0..<15 {
                            try store.save()
                            let count = try FileAdapter(file: url, configuration: explicitSaves).count(StoreQuery(schema: Jot.schema))
                            if count % batchSize != 0 { problems.withLock { $0.append("a save holds \(count) jots") } }
                            snapshotsChecked.withLock { $0 += 1 }
                        }
                        return
                    }
                    for batch in 0..<batches {
                        try store.transaction {
                            for k in 0..<batchSize {
                                try Jot.create(["title": .string("w\(worker) b\(batch) \(k)")], in: store)
                            }
                        }
                    }
                } catch {
                    problems.withLock { $0.append("\(error)") }
                }
            }
            #expect(problems.withLock { $0 } == [])
            #expect(snapshotsChecked.withLock { $0 } == 15)
            try store.save()
            let saved = try titles(in: url)
            #expect(saved.count == writers * batches * batchSize)
            #expect(Set(saved).count == saved.count)
        }
    }
}
