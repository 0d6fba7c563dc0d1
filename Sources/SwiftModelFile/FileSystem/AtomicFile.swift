/// Reads whole files, and replaces them atomically: the new contents go to a temporary
/// file in the same directory, which is flushed to disk and then renamed over the old
/// file, so a crash at any moment leaves either the old file or the new one, never a mix.
///
/// Every call goes through a ``FileSystem`` (``POSIXFileSystem`` unless a test puts a
/// simulated disk in ``FileAdapterConfiguration``).
enum AtomicFile {
    /// The file's bytes, or `nil` when it does not exist.
    static func contents(of path: String, in fileSystem: any FileSystem) throws(ArchiveError) -> [UInt8]? {
        do {
            return try fileSystem.readFile(at: path)
        } catch {
            if error.code == FileSystemError.notRegularFile {
                throw ArchiveError(.io, path: path, message: "not a regular file")
            }
            throw ioError(path, "cannot read", error)
        }
    }

    /// Replaces the file at `path` with `bytes`. A new file gets `permissions`; an existing
    /// one keeps its own. With `synchronous`, the data and the rename reach the disk before
    /// this returns; without, a power cut may leave the old file, the new one, or a
    /// damaged one (which loads as an ``ArchiveError``), but a process crash cannot.
    static func replace(
        _ path: String, with bytes: [UInt8], permissions: UInt16, synchronous: Bool, in fileSystem: any FileSystem
    ) throws(ArchiveError) {
        let directory = Self.directory(of: path)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let mode = fileSystem.permissions(at: path) ?? permissions
        let temporary = directory + "/." + name + ".\(processID).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let handle: Int32
        do {
            handle = try fileSystem.createFile(at: temporary, permissions: mode)
        } catch {
            throw ioError(path, "cannot create a temporary file in \(directory)", error)
        }
        var step = "write failed"
        do throws(FileSystemError) {
            try fileSystem.write(handle, bytes)
            if synchronous {
                step = "fsync failed"
                try fileSystem.sync(handle)
            }
        } catch {
            try? fileSystem.close(handle)
            fileSystem.remove(temporary)
            throw ioError(path, step, error)
        }
        do throws(FileSystemError) {
            step = "close failed"
            try fileSystem.close(handle)
            step = "cannot rename the temporary file over it"
            try fileSystem.rename(temporary, to: path)
        } catch {
            fileSystem.remove(temporary)
            throw ioError(path, step, error)
        }
        if synchronous {
            do {
                try fileSystem.syncDirectory(directory)
            } catch {
                throw ioError(path, "cannot sync the directory \(directory)", error)
            }
        }
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static let processID = ProcessIdentity.current

    private static func ioError(_ path: String, _ what: String, _ error: FileSystemError) -> ArchiveError {
        ArchiveError(.io, path: path, message: "\(what): \(error.reason) (errno \(error.code))")
    }
}
