#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The real file system, through POSIX calls.
package struct POSIXFileSystem: FileSystem {
    package init() {}

    package func readFile(at path: String) throws(FileSystemError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw Self.failure()
        }
        defer { _ = posixClose(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Self.failure() }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw FileSystemError(code: FileSystemError.notRegularFile, reason: "not a regular file")
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { buffer in
                // The buffer is non-empty here (done < count).
                read(fd, buffer.baseAddress.map { $0 + done }, buffer.count - done)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw Self.failure()
            }
            if n == 0 { break }
            done += n
        }
        if done < bytes.count { bytes.removeLast(bytes.count - done) }
        return bytes
    }

    package func permissions(at path: String) -> UInt16? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return UInt16(info.st_mode & 0o7777)
    }

    package func createFile(at path: String, permissions: UInt16) throws(FileSystemError) -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(permissions))
        guard fd >= 0 else { throw Self.failure() }
        // The umask narrows `open`'s mode; the file gets exactly `permissions`.
        guard fchmod(fd, mode_t(permissions)) == 0 else {
            let error = Self.failure()
            _ = posixClose(fd)
            unlink(path)
            throw error
        }
        return fd
    }

    package func write(_ handle: Int32, _ bytes: [UInt8]) throws(FileSystemError) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { buffer in
                buffer.baseAddress.map { posixWrite(handle, $0 + done, buffer.count - done) } ?? 0
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw Self.failure()
            }
            done += n
        }
    }

    package func sync(_ handle: Int32) throws(FileSystemError) {
        #if canImport(Darwin)
        // Apple's fsync leaves the data in the drive's cache; F_FULLFSYNC flushes it
        // (some file systems refuse it: fsync is then the best there is).
        if fcntl(handle, F_FULLFSYNC) == 0 { return }
        #endif
        guard fsync(handle) == 0 else { throw Self.failure() }
    }

    package func close(_ handle: Int32) throws(FileSystemError) {
        guard posixClose(handle) == 0 else { throw Self.failure() }
    }

    package func rename(_ source: String, to destination: String) throws(FileSystemError) {
        guard posixRename(source, destination) == 0 else { throw Self.failure() }
    }

    package func remove(_ path: String) {
        unlink(path)
    }

    package func syncDirectory(_ path: String) throws(FileSystemError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        // A directory that cannot be opened for syncing (some platforms) is not an error.
        guard fd >= 0 else { return }
        // Some file systems refuse to sync a directory (EINVAL): the rename stands anyway.
        _ = fsync(fd)
        _ = posixClose(fd)
    }

    private static func failure() -> FileSystemError {
        let code = errno
        return FileSystemError(code: code, reason: String(cString: strerror(code)))
    }
}

// The global calls, which the methods of the same names hide inside the type.
private func posixClose(_ fd: Int32) -> Int32 { close(fd) }
private func posixWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(fd, bytes, count) }
private func posixRename(_ source: String, _ destination: String) -> Int32 { rename(source, destination) }
