import Foundation

/// A journaled change, stored in the local store itself (so a change and its entry
/// commit together). Its id is the model's name and the record's typed id, so finding a
/// record's entry is one lookup by primary key on every local adapter.
final class SyncChange: Model {
    typealias IDValue = String
    static var tableName: String { "swiftmodel_sync_journal" }
    @Column var sequence: Int64 = 0
    @Column var model: String = ""
    /// The record id, typed: `i:42`, `u:<UUID>`, `s:<text>` (see ``SyncJournal/encode(_:)``).
    @Column var recordID: String = ""
    /// A ``SyncOperation`` raw value.
    @Column var operation: String = ""
    /// Changed column names joined by commas; `*` for every column.
    @Column var columns: String = "*"
    /// Sent as `Idempotency-Key` when the change is pushed.
    @Column var key: String = ""
    @Column var provisional: Bool = false
    @Column var failure: String?
    @Column var attempts: Int = 0
    init() {}
}

/// The journal of local changes. Recording a change is O(1): one find by primary key and
/// one write, whatever the number of entries.
struct SyncJournal: Sendable {
    let store: any PersistenceAdapter
    let schema = SyncChange.schema
    private let lastSequence = Locked<Int64?>(nil)

    init(store: any PersistenceAdapter) { self.store = store }

    private func slot(_ name: String) -> Int { schema.index(ofColumn: name) ?? 0 }

    /// A record id as typed text; ``decode(_:)`` reads it back as the same value.
    static func encode(_ id: ModelValue) -> String {
        switch id {
        case .int(let n): "i:\(n)"
        case .uuid(let u): "u:\(u.uuidString)"
        case .string(let s): "s:" + s
        default: "j:" + ModelJSON.serialize(id)
        }
    }

    static func decode(_ text: String) -> ModelValue? {
        let body = String(text.dropFirst(2))
        switch text.prefix(2) {
        case "i:": return Int64(body).map(ModelValue.int)
        case "u:": return UUID(uuidString: body).map(ModelValue.uuid)
        case "s:": return .string(body)
        case "j:": return try? ModelJSON.parse(body)
        default: return nil
        }
    }

    static func key(model: String, id: ModelValue) -> ModelValue { .string(model + "\u{1F}" + encode(id)) }

    private func entry(_ row: [ModelValue]) throws -> SyncEntry {
        func text(_ name: String) -> String? { if case .string(let s) = row[slot(name)] { s } else { nil } }
        func int(_ name: String) -> Int64? { if case .int(let n) = row[slot(name)] { n } else { nil } }
        guard let model = text("model"), let idText = text("record_id"), let id = Self.decode(idText),
            let operation = text("operation").flatMap(SyncOperation.init(rawValue:)), let sequence = int("sequence")
        else {
            throw StoreError(
                .invalidStoredValue, table: schema.tableName, id: row[0],
                message: "an unreadable journal entry (model, record id, operation or sequence): \(row)")
        }
        let columns = text("columns") ?? "*"
        return SyncEntry(
            model: model, id: id, operation: operation,
            changedColumns: columns == "*" ? nil : columns.split(separator: ",").map(String.init), failure: text("failure"),
            attempts: Int(int("attempts") ?? 0), provisional: row[slot("provisional")] == .bool(true), sequence: sequence,
            idempotencyKey: text("key") ?? "")
    }

    /// Every entry, oldest first (optionally one model's).
    func entries(model: String? = nil) throws -> [SyncEntry] {
        let predicate = model.map { QueryPredicate.compare(column: slot("model"), .equal, .string($0)) }
        return try store.fetch(StoreQuery(schema: schema, predicate: predicate, sort: [SortKey(column: slot("sequence"))]))
            .map(entry)
    }

    /// The entry of one record, if it has one.
    func entry(model: String, id: ModelValue) throws -> SyncEntry? {
        try store.find(id: Self.key(model: model, id: id), in: schema).map(entry)
    }

    /// The next entry's place: after every stored entry (read once) and every one handed out.
    private func nextSequence() throws -> Int64 {
        if lastSequence.withLock({ $0 }) == nil {
            let column = slot("sequence")
            let newest = try store.fetch(StoreQuery(schema: schema, sort: [SortKey(column: column, ascending: false)], limit: 1))
            let stored: Int64 = if case .int(let n) = newest.first?[column] { n } else { 0 }
            lastSequence.withLock { if $0 == nil { $0 = stored } }
        }
        return lastSequence.withLock { value in
            let next = (value ?? 0) + 1
            value = next
            return next
        }
    }

    /// Records a change, folding it into the record's pending one: insert then update
    /// stays an insert, insert then delete leaves nothing (the server never saw it),
    /// updates merge their columns, anything then delete is a delete, a delete then an
    /// insert of the same id is an update of every column. A new change clears a failure.
    func record(
        _ operation: SyncOperation, model: String, id: ModelValue, columns: [String]? = nil, provisional: Bool = false
    ) throws {
        let key = Self.key(model: model, id: id)
        let pending = try store.find(id: key, in: schema).map(entry)
        var folded = operation
        var changed = columns
        switch (pending?.operation, operation) {
        case (nil, _): break
        case (.insert?, .update), (.insert?, .insert): folded = .insert
        case (.insert?, .delete):
            _ = try store.delete(id: key, from: schema)
            return
        case (.update?, .update):
            if let mine = pending?.changedColumns, let new = columns {
                changed = mine + new.filter { !mine.contains($0) }
            } else {
                changed = nil
            }
        case (.delete?, .insert), (.delete?, .update): folded = .update; changed = nil
        case (_, .delete): folded = .delete
        default: break
        }
        var row = schema.newRecordValues()
        row[0] = key
        row[slot("sequence")] = .int(try pending?.sequence ?? nextSequence())
        row[slot("model")] = .string(model)
        row[slot("record_id")] = .string(Self.encode(id))
        row[slot("operation")] = .string(folded.rawValue)
        row[slot("columns")] = .string(changed?.joined(separator: ",") ?? "*")
        row[slot("key")] = .string(pending?.idempotencyKey ?? "swiftmodel-sync-" + UUID().uuidString)
        row[slot("provisional")] = .bool(pending?.provisional ?? provisional)
        row[slot("failure")] = .null
        row[slot("attempts")] = .int(Int64(pending?.attempts ?? 0))
        if pending == nil {
            _ = try store.insert(row, into: schema)
        } else {
            try store.update(row, changedColumns: Array(1..<row.count), in: schema)
        }
    }

    func remove(_ entry: SyncEntry) throws { _ = try store.delete(id: Self.key(model: entry.model, id: entry.id), from: schema) }

    /// Marks an entry refused by the server (nil clears the mark, so the next push sends it).
    func mark(_ entry: SyncEntry, failure: String?, attempted: Bool) throws {
        guard var row = try store.find(id: Self.key(model: entry.model, id: entry.id), in: schema) else { return }
        row[slot("failure")] = failure.map(ModelValue.string) ?? .null
        if attempted { row[slot("attempts")] = .int(Int64(entry.attempts + 1)) }
        try store.update(row, changedColumns: [slot("failure"), slot("attempts")], in: schema)
    }

    /// Points the entry of `old` at `new` (the server assigned an id), keeping its place.
    func rekey(model: String, from old: ModelValue, to new: ModelValue, provisional: Bool) throws {
        guard var row = try store.find(id: Self.key(model: model, id: old), in: schema) else { return }
        _ = try store.delete(id: row[0], from: schema)
        row[0] = Self.key(model: model, id: new)
        row[slot("record_id")] = .string(Self.encode(new))
        row[slot("provisional")] = .bool(provisional)
        _ = try store.insert(row, into: schema)
    }
}
