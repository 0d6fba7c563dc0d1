/// An incoming record that differs from a local record changed since it was last in sync.
///
/// The resolution closure of ``ModelProtocol/importJSON(_:into:resolve:isLocallyModified:)``
/// receives it and returns an ``ImportResolution``.
public struct ImportConflict<M: ModelProtocol> {
    /// The record's position in the incoming array.
    public let index: Int
    /// The stored record (unchanged so far).
    public let local: M
    /// The incoming record, read from the document (unsaved).
    public let incoming: M
    /// The stored names of the columns whose values differ.
    public let changedColumns: [String]
}

/// What an import does with a conflict.
public enum ImportResolution: Sendable, Hashable {
    /// Keeps the stored record as it is.
    case keepLocal
    /// Writes the incoming values over the stored record.
    case takeIncoming
    /// Writes these values (by stored column name, cast as ``ModelProtocol/set(_:)``
    /// casts) over the stored record: a field-by-field merge.
    case merge([String: ModelValue])
}

/// What an import did, record by record.
public struct ImportReport<M: ModelProtocol>: CustomStringConvertible {
    /// One conflict and how it was resolved.
    public struct ResolvedConflict: CustomStringConvertible {
        /// The record's position in the incoming array.
        public let index: Int
        /// The record's id.
        public let id: M.IDValue
        /// The columns that differed.
        public let changedColumns: [String]
        /// What the resolution closure decided.
        public let resolution: ImportResolution

        public var description: String { "\(id): \(changedColumns.joined(separator: ", ")) → \(resolution)" }
    }

    /// Ids of records that were new.
    public internal(set) var inserted: [M.IDValue] = []
    /// Ids of stored records updated without conflict.
    public internal(set) var updated: [M.IDValue] = []
    /// Ids of stored records equal to the incoming ones (nothing written).
    public internal(set) var unchanged: [M.IDValue] = []
    /// Conflicts, in document order, with their resolutions.
    public internal(set) var conflicts: [ResolvedConflict] = []

    /// `3 inserted, 1 updated, 0 unchanged, 1 conflict`.
    public var description: String {
        "\(inserted.count) inserted, \(updated.count) updated, \(unchanged.count) unchanged, "
            + "\(conflicts.count) conflict\(conflicts.count == 1 ? "" : "s")"
    }
}

extension ImportReport: Sendable where M.IDValue: Sendable {}
extension ImportReport.ResolvedConflict: Sendable where M.IDValue: Sendable {}
