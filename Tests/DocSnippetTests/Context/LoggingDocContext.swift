import ArrayAdapter

enum LoggingDoc {
    struct Context {
        let bulkImport: () throws -> Void
        let report: String
    }

    static func withContext(_ body: (Context) throws -> Void) throws {
        try ModelStore.using(ArrayAdapter()) { try body(Context(bulkImport: {}, report: "3 inserted")) }
    }
}
