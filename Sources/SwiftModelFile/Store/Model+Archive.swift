import Foundation

/// MotionModel-style persistence of one model type to its own archive file.
///
/// ```swift
/// ModelStore.setDefault(FileAdapter())
/// try Todo.deserialize(from: URL(filePath: "todos.archive"))   // missing file: no todos
/// try Todo(["name": "walk"]).save()
/// try Todo.serialize()                                          // back to todos.archive
/// ```
extension ModelProtocol where Self: ModelObject {
    /// Writes every stored record of this model to `url` (by default the file it was last
    /// loaded from or saved to), atomically.
    ///
    /// - Parameter store: The adapter to use; by default the one this model resolves to,
    ///   which must be a ``FileAdapter``.
    /// - Throws: ``ArchiveError`` `.io` when the file cannot be written (the old one is kept);
    ///   ``StoreError`` `.invalidRequest` when no file is known or the store is not a
    ///   FileAdapter.
    public static func serialize(to url: URL? = nil, in store: FileAdapter? = nil) throws {
        try (store ?? fileAdapter()).save(Self.self, to: url)
    }

    /// Replaces this model's stored records with those in `url` (by default the file it
    /// was last loaded from or saved to). No hooks run and timestamps are kept as stored;
    /// new records continue above the largest loaded id.
    ///
    /// - Throws: ``ArchiveError`` when the file is missing (with `.fail`), damaged, foreign,
    ///   or holds values that do not fit the model; the store is unchanged then.
    public static func deserialize(
        from url: URL? = nil, ifMissing: MissingFilePolicy = .startEmpty, in store: FileAdapter? = nil
    ) throws {
        try (store ?? fileAdapter()).load(Self.self, from: url, ifMissing: ifMissing)
    }

    private static func fileAdapter() throws -> FileAdapter {
        let adapter = try ModelStore.adapter(for: Self.self)
        guard let file = adapter as? FileAdapter else {
            throw StoreError(
                .invalidRequest, table: schema.tableName,
                message: "\(Self.self) is stored in \(type(of: adapter)); serialize and deserialize need a FileAdapter")
        }
        return file
    }
}
