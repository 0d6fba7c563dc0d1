/// Why an archive file could not be read, loaded or written. It names the file and, when
/// it applies, the table, column and record; the store and the file are left as they were.
///
/// ```swift
/// do {
///     try store.load()
/// } catch let error as ArchiveError where error.kind == .corrupt {
///     print(error)   // todos.archive: corrupt: reference 912 is out of range
/// }
/// ```
public struct ArchiveError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Sendable, Hashable {
        /// The file does not exist (and the call asked for it to).
        case missingFile
        /// The file could not be read or written (permissions, disk full…).
        case io
        /// The file ends early: a partial write or a cut copy.
        case truncated
        /// The file is a property list, but its objects are damaged.
        case corrupt
        /// The file is not a binary property list, or not a keyed archive.
        case foreign
        /// The archive uses a class or layout SwiftModel does not read.
        case unsupported
        /// The archive has no table for the model asked for.
        case tableNotFound
        /// The archive was written by a newer schema version than the model declares.
        case newerVersion
        /// A stored value does not fit its column (after casting), or a row lacks an id.
        case invalidValue
        /// A migration closure threw.
        case migrationFailed
    }

    /// What went wrong.
    public var kind: Kind
    /// The file's path.
    public var path: String
    /// The table concerned, if any.
    public var table: String?
    /// The column concerned, if any.
    public var column: String?
    /// Details.
    public var message: String

    /// Creates an archive error.
    public init(_ kind: Kind, path: String, table: String? = nil, column: String? = nil, message: String) {
        self.kind = kind
        self.path = path
        self.table = table
        self.column = column
        self.message = message
    }

    public var description: String {
        var text = path + ": " + kind.rawValue
        if let table { text += " in table \(table)" }
        if let column { text += ", column \(column)" }
        return text + ": " + message
    }
}

extension ArchiveError: SwiftModelError {
    /// The table concerned, if any.
    public var tableName: String? { table }
    /// The column concerned, if any.
    public var columnName: String? { column }
}
