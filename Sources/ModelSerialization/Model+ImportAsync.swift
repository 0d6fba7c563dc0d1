import Foundation
import ModelCore

/// The async forms of the imports. An import makes its own records (the incoming and
/// the stored ones it compares), so the whole import — parsing, conflict resolution and
/// the one store transaction — runs on ``BlockingPool``; the caller gets the report.
/// `resolve` and `isLocallyModified` run there too, so they must be `@Sendable`.
extension ModelProtocol {
    /// Imports a JSON array of records in one transaction (async; see
    /// ``importJSON(_:into:resolve:isLocallyModified:)``).
    @discardableResult
    nonisolated(nonsending) public static func importJSON(
        _ json: Data, into adapter: (any PersistenceAdapter)? = nil,
        resolve: @escaping @Sendable (ImportConflict<Self>) throws -> ImportResolution = { _ in .keepLocal },
        isLocallyModified: (@Sendable (_ local: Self, _ incoming: Self) -> Bool)? = nil
    ) async throws -> sending ImportReport<Self> {
        try await onPool(adapter) { store in
            try importJSON(json, into: store, resolve: resolve, isLocallyModified: isLocallyModified)
        }
    }

    /// Imports records given as dictionaries (async; see
    /// ``importRecords(_:into:resolve:isLocallyModified:)``).
    @discardableResult
    nonisolated(nonsending) public static func importRecords(
        _ dictionaries: [[String: ModelValue]], into adapter: (any PersistenceAdapter)? = nil,
        resolve: @escaping @Sendable (ImportConflict<Self>) throws -> ImportResolution = { _ in .keepLocal },
        isLocallyModified: (@Sendable (_ local: Self, _ incoming: Self) -> Bool)? = nil
    ) async throws -> sending ImportReport<Self> {
        try await onPool(adapter) { store in
            try importRecords(dictionaries, into: store, resolve: resolve, isLocallyModified: isLocallyModified)
        }
    }
}
