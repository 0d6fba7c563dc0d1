import SQLiteAdapter
import Testing

@Suite("SQLite library")
struct SQLiteLibraryTests {
    @Test func linksAThreadSafeSQLite3() {
        #expect(SQLiteLibrary.version.hasPrefix("3."))
        #expect(SQLiteLibrary.versionNumber >= 3_031_000)  // JSON functions, RETURNING, …
        #expect(SQLiteLibrary.isThreadSafe)
    }
}
