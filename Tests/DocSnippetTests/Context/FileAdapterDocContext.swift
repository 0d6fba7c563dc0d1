import FileAdapter

final class FileAdapterDoc_Project: Model {
    @Column var name = ""
    init() {}
}

final class FileAdapterDoc_Todo: Model {
    @Column var name = ""
    @Column var minutes = 0
    init() {}
}

enum FileAdapterDoc {
    struct Context {
        let store: FileAdapter
    }

    static func withContext(_ body: (Context) throws -> Void) throws {
        let store = FileAdapter()
        try ModelStore.using(store) { try body(Context(store: store)) }
    }
}
