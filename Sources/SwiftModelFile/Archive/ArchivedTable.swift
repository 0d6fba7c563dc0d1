/// One table as an archive stores it, before it meets the model: column names, values
/// as stored, and which keys records lack.
struct ArchivedTable: Sendable {
    /// The table name (`nil` for an archive whose root is a bare array of records).
    var name: String?
    /// The model's Swift name, when recorded.
    var model: String?
    /// The schema version the file was written with (1 when not recorded).
    var version: Int
    /// The next integer id the table would have assigned, when recorded.
    var nextID: Int64?
    /// Column names: the recorded list first, then any other key records use.
    var columns: [String]
    /// One array per record, aligned with ``columns``; `.null` where absent.
    var records: [[ModelValue]]
    /// Record index → the columns that record has no key for (distinct from a stored nil).
    var absent: [Int: [Int]] = [:]
}

/// Names used in SwiftModel archives (class names and keys).
enum ArchiveNames {
    static let archiveClass = "SwiftModelArchive"
    static let tableClass = "SwiftModelTable"
    static let format = "format"
    static let tables = "tables"
    static let name = "name"
    static let model = "model"
    static let schemaVersion = "schemaVersion"
    static let nextID = "nextID"
    static let columns = "columns"
    static let records = "records"
    /// The archive format this version writes.
    static let currentFormat: Int64 = 1
}
