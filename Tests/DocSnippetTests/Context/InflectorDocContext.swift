import ArrayAdapter

enum InflectorDoc {
    struct Context {
        /// A private inflector: the snippets add and clear rules.
        let inflector: Inflector
    }

    static func withContext(_ body: (Context) throws -> Void) throws {
        try ModelStore.using(ArrayAdapter()) { try body(Context(inflector: Inflector())) }
    }
}
