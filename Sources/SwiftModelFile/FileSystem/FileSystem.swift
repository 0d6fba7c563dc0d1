/// The file-system calls FileAdapter makes, as a seam: ``POSIXFileSystem`` in production;
/// tests put a simulated disk here to cut the power between any two calls.
///
/// Handles are opaque integers the implementation hands out. Errors carry the `errno`
/// the call failed with; ``AtomicFile`` turns them into ``ArchiveError`` `.io` with the
/// path.
package protocol FileSystem: Sendable {
    /// The whole file, or `nil` when nothing exists at `path`.
    ///
    /// - Throws: ``FileSystemError`` when it cannot be read, or is not a regular file
    ///   (`EISDIR`-like errors use ``FileSystemError/notRegularFile``).
    func readFile(at path: String) throws(FileSystemError) -> [UInt8]?
    /// The permission bits of the regular file at `path`, or `nil` when there is none.
    func permissions(at path: String) -> UInt16?
    /// Creates a new file (failing if `path` exists) with `permissions`, open for writing.
    func createFile(at path: String, permissions: UInt16) throws(FileSystemError) -> Int32
    /// Appends all of `bytes` to the open file.
    func write(_ handle: Int32, _ bytes: [UInt8]) throws(FileSystemError)
    /// Waits until the file's data is on the disk (`fsync`).
    func sync(_ handle: Int32) throws(FileSystemError)
    /// Closes the file.
    func close(_ handle: Int32) throws(FileSystemError)
    /// Renames `source` over `destination`, atomically.
    func rename(_ source: String, to destination: String) throws(FileSystemError)
    /// Removes the file at `path`, ignoring errors (clean-up after a failure).
    func remove(_ path: String)
    /// Waits until the directory's entries (creations, renames) are on the disk.
    func syncDirectory(_ path: String) throws(FileSystemError)
}

/// A failed file-system call: the `errno` it set, or ``notRegularFile``.
package struct FileSystemError: Error, Sendable {
    /// The `errno` value, or ``notRegularFile``.
    package let code: Int32
    /// What the system says about `code`.
    package let reason: String

    /// The code for a path that holds something other than a regular file.
    package static let notRegularFile: Int32 = -1

    package init(code: Int32, reason: String) {
        self.code = code
        self.reason = reason
    }
}
