import Foundation

/// How far a model's changes feed has been applied locally: the cursor to ask after
/// next. Stored in the local store itself and written in the transaction that merges the
/// page it ends, so a crash between the two can lose neither.
final class SyncCheckpoint: Model {
    typealias IDValue = String
    static var tableName: String { "swiftmodel_sync_checkpoints" }
    /// The feed's cursor, as the server wrote it (opaque text).
    @Column var cursor: String = ""
    init() {}
}

/// Reading and writing checkpoints with the local adapter's own calls (inside the merge's
/// transaction, never through the journaling store).
struct SyncCheckpoints: Sendable {
    let store: any PersistenceAdapter
    let schema = SyncCheckpoint.schema

    /// The cursor stored for `model`, if any.
    func cursor(_ model: String) throws -> String? {
        guard let row = try store.find(id: .string(model), in: schema) else { return nil }
        guard case .string(let cursor) = row[1], !cursor.isEmpty else {
            throw StoreError(
                .invalidStoredValue, table: schema.tableName, id: .string(model), column: "cursor",
                message: "an unreadable feed checkpoint: \(row[1])")
        }
        return cursor
    }

    /// Stores `cursor` for `model`.
    func set(_ model: String, _ cursor: String) throws {
        let row: [ModelValue] = [.string(model), .string(cursor)]
        if try store.find(id: .string(model), in: schema) != nil {
            try store.update(row, changedColumns: [1], in: schema)
        } else {
            _ = try store.insert(row, into: schema)
        }
    }

    /// Forgets `model`'s cursor (its next pull reads everything again).
    func clear(_ model: String) throws { _ = try store.delete(id: .string(model), from: schema) }
}
