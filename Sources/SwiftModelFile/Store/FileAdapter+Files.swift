import SwiftModelArray
import Foundation

extension FileAdapter {
    // MARK: - The store file

    /// Replaces every table in memory with the store file's contents. Tables of models
    /// not registered load on their first use.
    ///
    /// - Throws: ``ArchiveError`` (`.missingFile` only with `.fail`) when the file cannot
    ///   be read or does not fit the registered models; ``StoreError`` without a store file
    ///   or inside a transaction. Nothing changes then.
    public func load(ifMissing: MissingFilePolicy = .startEmpty) throws {
        let file = try storeFile()
        let tables = try Self.readTables(at: file.path, ifMissing: ifMissing, in: configuration.fileSystem) ?? []
        let history = try Self.loadedHistory(from: tables, path: file.path)
        try memory.withLock {
            var replacements: [(schema: ModelSchema, rows: [[ModelValue]], nextID: Int64)] = []
            var pending: [String: ArchivedTable] = [:]
            for table in tables where !Self.isHistoryTable(table.name) {
                guard let name = table.name else {
                    throw ArchiveError(
                        .unsupported, path: file.path,
                        message: "the root is a bare array of records; load it per model with deserialize(from:)")
                }
                if let registration = registrations[name] {
                    let rows = try TableImport.rows(from: table, for: registration, path: file.path)
                    replacements.append((registration.schema, rows, table.nextID ?? 1))
                } else {
                    pending[name] = table
                }
            }
            try install(replacements, clearingOthers: true, from: file.path)
            memory.history = history
            unclaimed = pending
            pendingTables.store(pending.count, ordering: .releasing)
            dirtyTables.removeAll()
            storeDirty = false
        }
    }

    /// Writes every table (and tables loaded but not yet used) to the store file,
    /// atomically.
    ///
    /// - Throws: ``ArchiveError`` `.io` when the file cannot be written (the old file is
    ///   kept); ``StoreError`` without a store file or inside a transaction.
    public func save() throws {
        let file = try storeFile()
        try checkNotInTransaction()
        try fileLock.withLock { _ in
            let snapshot = try memory.withLock {
                if memory.closed { throw StoreError.closed(memory.label) }  // never write an emptied store
                storeDirty = false
                return storeSnapshot()
            }
            do {
                try write(snapshot, to: file)
            } catch {
                memory.withLock { storeDirty = true }
                throw error
            }
        }
    }

    // MARK: - One file per model

    /// Replaces `type`'s rows with those in `url` (by default the file this model was last
    /// loaded from or saved to) and remembers the file.
    ///
    /// The file may hold several tables (a store file): the one named after the model's
    /// table is used. A bare array of records (MotionModel's layout) is read as this
    /// model's.
    public func load<M: Model>(_ type: M.Type, from url: URL? = nil, ifMissing: MissingFilePolicy = .startEmpty) throws {
        let schema = M.schema
        let file = try modelFile(url, schema)
        let tables = try Self.readTables(at: file.path, ifMissing: ifMissing, in: configuration.fileSystem)
        try memory.withLock {
            var rows: [[ModelValue]] = [], nextID: Int64 = 1
            if let tables {
                guard let table = tables.first(where: { $0.name == schema.tableName })
                    ?? (tables.count == 1 && (tables[0].name == nil || tables[0].model == schema.modelName) ? tables[0] : nil)
                else {
                    throw ArchiveError(
                        .tableNotFound, path: file.path, table: schema.tableName,
                        message: "the archive has tables \(tables.compactMap(\.name)), none for \(schema.modelName)")
                }
                let registration = registrations[schema.tableName] ?? ArchiveRegistration(schema: schema)
                rows = try TableImport.rows(from: table, for: registration, path: file.path)
                nextID = table.nextID ?? 1
            }
            try install([(schema, rows, nextID)], clearingOthers: false, from: file.path)
            // Rows replaced wholesale are not a change the history can describe: readers resync.
            if schema.keepsHistory { memory.history.clear() }
            if unclaimed.removeValue(forKey: schema.tableName) != nil {
                pendingTables.store(unclaimed.count, ordering: .releasing)
            }
            tableFiles[schema.tableName] = (file, schema)
            dirtyTables.remove(schema.tableName)
        }
    }

    /// Writes `type`'s rows to `url` (by default the file this model was last loaded from
    /// or saved to), atomically, and remembers the file.
    public func save<M: Model>(_ type: M.Type, to url: URL? = nil) throws {
        let schema = M.schema
        let file = try modelFile(url, schema)
        try checkNotInTransaction()
        try claimIfPending(schema)
        try fileLock.withLock { _ in
            let snapshot = try memory.withLock {
                tableFiles[schema.tableName] = (file, schema)
                dirtyTables.remove(schema.tableName)
                return [tableSnapshot(try memory.contents(of: schema))]
            }
            do {
                try write(snapshot, to: file)
            } catch {
                memory.withLock { _ = dirtyTables.insert(schema.tableName) }
                throw error
            }
        }
    }

    /// The file `type` is saved to by default, if one is known.
    public func file<M: Model>(for type: M.Type) -> URL? {
        memory.withLock { tableFiles[M.schema.tableName]?.url }
    }

    // MARK: - Pending changes

    /// Writes what autosave would write, now: the store file if anything changed since it
    /// was saved, and each per-model file whose model changed. Returns when the data is on
    /// disk; errors are thrown here (and the changes stay pending).
    public func flush() throws {
        try checkNotInTransaction()
        try writePending(closing: false)
    }

    /// Closes the store: waits for transactions in flight on other threads, writes every
    /// pending change (as ``flush()``), then drops the rows from memory. Later calls throw
    /// ``StoreError`` `.closed`; closing again does nothing. A scheduled autosave finds the
    /// store closed and writes nothing (the close wrote it all).
    ///
    /// - Throws: ``StoreError`` `.invalidRequest` inside one of this store's transactions;
    ///   the file system's error when a write fails; the store then stays open with its
    ///   changes pending, so nothing is lost.
    public func close() throws {
        guard !callerIsInTransaction else {
            throw StoreError(.invalidRequest, table: "", message: "close() inside a transaction")
        }
        try writePending(closing: true)
        try memory.close()
    }

    /// Writes the store file if anything changed since it was saved, and each per-model
    /// file whose model changed. With `closing`, the store refuses every call from the
    /// moment the snapshot is taken (no write can slip in after it), and accepts them again
    /// if a write fails.
    private func writePending(closing: Bool) throws {
        try fileLock.withLock { _ in
            let snapshot = try memory.withLock {
                () throws -> (store: [TableSnapshot]?, tables: [(URL, String, [TableSnapshot])])? in
                if memory.closed {
                    if closing { return nil }
                    throw StoreError.closed(memory.label)
                }
                let store = file != nil && storeDirty ? storeSnapshot() : nil
                var tables: [(URL, String, [TableSnapshot])] = []
                for name in dirtyTables.sorted() {
                    guard let (url, schema) = tableFiles[name] else { continue }
                    tables.append((url, name, [tableSnapshot(try memory.contents(of: schema))]))
                }
                storeDirty = false
                dirtyTables.subtract(tables.map(\.1))
                if closing { memory.closed = true }
                return (store, tables)
            }
            guard let (store, tables) = snapshot else { return }
            var failed: (any Error)?
            if let store, let file {
                do { try write(store, to: file) } catch {
                    failed = error
                    memory.withLock { storeDirty = true }
                }
            }
            for (url, name, snapshot) in tables {
                do { try write(snapshot, to: url) } catch {
                    failed = failed ?? error
                    memory.withLock { _ = dirtyTables.insert(name) }
                }
            }
            if let failed {
                if closing { memory.withLock { memory.closed = false } }
                throw failed
            }
        }
    }

    // MARK: - Internals

    /// All tables, in memory and pending, sorted by name. Call with the lock held.
    func storeSnapshot() -> [TableSnapshot] {
        var snapshots = memory.contents().map(tableSnapshot)
        let present = Set(snapshots.map(\.name))
        for (name, table) in unclaimed where !present.contains(name) {
            snapshots.append(
                TableSnapshot(
                    name: name, model: table.model ?? name, version: table.version, nextID: table.nextID ?? 1,
                    columns: table.columns, count: table.records.count, rows: .rows(table.records), absent: table.absent))
        }
        return (snapshots + historySnapshots()).sorted { $0.name < $1.name }
    }

    func tableSnapshot(_ contents: ArrayAdapter.TableContents) -> TableSnapshot {
        let schema = contents.schema
        return TableSnapshot(
            name: schema.tableName, model: schema.modelName, version: version(of: schema.tableName),
            nextID: contents.nextID, columns: schema.columnNames, count: contents.count, rows: .slots(contents.slots))
    }

    /// Encodes and atomically writes tables (outside the store's lock).
    func write(_ tables: [TableSnapshot], to file: URL) throws {
        let bytes: [UInt8]
        do {
            bytes = try KeyedArchiveWriter.archive(tables)
        } catch {
            throw ArchiveError(.unsupported, path: file.path, message: "more than 4,294,967,295 objects in one archive")
        }
        try AtomicFile.replace(
            file.path, with: bytes, permissions: configuration.permissions, synchronous: configuration.synchronous,
            in: configuration.fileSystem)
        filesWritten.add(1, ordering: .relaxed)
        Self.log.info(
            "saved \(tables.count) table(s), \(bytes.count) bytes to \(file.path)",
            metadata: ["path": file.path, "bytes": String(bytes.count)])
    }

    /// FileAdapter's logger: subsystem `"file"`.
    static let log = ModelLogger(subsystem: "file")

    /// Reads and decodes an archive; `nil` when the file is missing and that is allowed.
    static func readTables(
        at path: String, ifMissing: MissingFilePolicy, in fileSystem: any FileSystem
    ) throws(ArchiveError) -> [ArchivedTable]? {
        guard let bytes = try AtomicFile.contents(of: path, in: fileSystem) else {
            log.info("no file at \(path): \(ifMissing == .startEmpty ? "starting empty" : "refused")")
            if ifMissing == .startEmpty { return nil }
            throw ArchiveError(.missingFile, path: path, message: "no such file")
        }
        let decoded = bytes.withUnsafeBytes { buffer -> Result<[ArchivedTable], PlistError> in
            do throws(PlistError) {
                return .success(try KeyedArchiveReader(try BinaryPlistReader(buffer)).tables())
            } catch {
                return .failure(error)
            }
        }
        switch decoded {
        case .success(let tables):
            log.info("read \(tables.count) table(s), \(bytes.count) bytes from \(path)")
            return tables
        case .failure(let error):
            switch error {
            case .notPlist: throw ArchiveError(.foreign, path: path, message: "not a binary property list")
            case .notKeyedArchive(let why): throw ArchiveError(.foreign, path: path, message: why)
            case .truncated(let why): throw ArchiveError(.truncated, path: path, message: why)
            case .malformed(let why): throw ArchiveError(.corrupt, path: path, message: why)
            case .unsupported(let why): throw ArchiveError(.unsupported, path: path, message: why)
            }
        }
    }

    private func storeFile() throws -> URL {
        guard let file else {
            throw StoreError(
                .invalidRequest, table: "*",
                message: "this FileAdapter has no store file; create it with FileAdapter(file:) or save per model")
        }
        return file
    }

    private func modelFile(_ url: URL?, _ schema: ModelSchema) throws -> URL {
        if let url { return url }
        if let known = memory.withLock({ tableFiles[schema.tableName]?.url }) { return known }
        throw StoreError(
            .invalidRequest, table: schema.tableName,
            message: "no file for \(schema.modelName) yet: pass one to serialize(to:) or deserialize(from:)")
    }

    func checkNotInTransaction() throws {
        guard !callerIsInTransaction else {
            throw StoreError(.invalidRequest, table: "*", message: "cannot save inside a transaction: its writes are not committed")
        }
    }
}
