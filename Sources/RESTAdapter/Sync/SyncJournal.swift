import Foundation

/// A local change not yet pushed: one per record (later changes fold into it).
final class SyncChange: Model {
    static var tableName: String { "swiftmodel_sync_changes" }
    @Column var model: String = ""
    /// The record id as JSON text.
    @Column var recordID: String = ""
    /// `insert`, `update` or `delete`.
    @Column var operation: String = ""
    /// Sent as `Idempotency-Key` when the change is pushed, so a retried push never
    /// creates the record twice.
    @Column var key: String = ""
    init() {}
}

/// The journal of local changes, kept in the local store itself (so a change and its
/// journal entry commit together).
struct SyncJournal: Sendable {
    let store: any PersistenceAdapter
    let schema = SyncChange.schema

    struct Entry {
        let seq: ModelValue
        let model: String
        let id: ModelValue
        let operation: String
        let key: String
    }

    private func column(_ name: String) -> Int { schema.index(ofColumn: name) ?? 0 }

    func entries(model: String? = nil) throws -> [Entry] {
        let predicate = model.map { QueryPredicate.compare(column: column("model"), .equal, .string($0)) }
        return try store.fetch(StoreQuery(schema: schema, predicate: predicate, sort: [SortKey(column: 0)])).compactMap { row in
            guard case .string(let model) = row[column("model")], case .string(let idText) = row[column("record_id")],
                case .string(let operation) = row[column("operation")], case .string(let key) = row[column("key")],
                let id = try? ModelJSON.parse(idText)
            else { return nil }
            return Entry(seq: row[0], model: model, id: id, operation: operation, key: key)
        }
    }

    func entry(model: String, id: ModelValue) throws -> Entry? {
        try entries(model: model).first { $0.id == id }
    }

    /// Records a change, folding it into the record's pending one.
    func record(_ operation: String, model: String, id: ModelValue) throws {
        let pending = try entry(model: model, id: id)
        let folded: String?
        switch (pending?.operation, operation) {
        case (nil, _): folded = operation
        case ("insert", "update"): folded = "insert"
        case ("insert", "delete"): folded = nil  // never reached the server
        case (_, let latest): folded = latest
        }
        if let pending { _ = try store.delete(id: pending.seq, from: schema) }
        guard let folded else { return }
        var row = schema.newRecordValues()
        row[column("model")] = .string(model)
        row[column("record_id")] = .string(ModelJSON.serialize(id))
        row[column("operation")] = .string(folded)
        row[column("key")] = .string(pending?.key ?? "swiftmodel-sync-" + UUID().uuidString)
        _ = try store.insert(row, into: schema)
    }

    func remove(_ entry: Entry) throws { _ = try store.delete(id: entry.seq, from: schema) }

    /// Points pending changes of `old` at `new` (after the server assigned an id).
    func rekey(model: String, from old: ModelValue, to new: ModelValue) throws {
        guard let pending = try entry(model: model, id: old) else { return }
        _ = try store.update(
            StoreQuery(schema: schema, predicate: .compare(column: 0, .equal, pending.seq)),
            set: [column("record_id"): .string(ModelJSON.serialize(new))])
    }
}
