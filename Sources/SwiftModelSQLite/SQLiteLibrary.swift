import SwiftModelCSQLite

/// Facts about the system SQLite library this module links.
///
/// The `PersistenceAdapter` on SQLite is being built (see the project's issue list); this
/// target already links `libsqlite3` through the `SwiftModelCSQLite` system-library target so that
/// products and CI exercise the dependency.
public enum SQLiteLibrary {
    /// The linked library's version string, e.g. `"3.40.1"`.
    public static var version: String { String(cString: sqlite3_libversion()) }
    /// The linked library's version number, e.g. `3040001`.
    public static var versionNumber: Int { Int(sqlite3_libversion_number()) }
    /// Whether the library was built thread-safe (required by the adapter's design).
    public static var isThreadSafe: Bool { sqlite3_threadsafe() != 0 }
}
