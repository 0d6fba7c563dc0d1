#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads whole files, and replaces them atomically: the new contents go to a temporary
/// file in the same directory, which is flushed to disk and then renamed over the old
/// file, so a crash at any moment leaves either the old file or the new one, never a mix.
enum AtomicFile {
    /// The file's bytes, or `nil` when it does not exist.
    static func contents(of path: String) throws(ArchiveError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw ioError(path, "cannot open for reading")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw ioError(path, "cannot stat") }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw ArchiveError(.io, path: path, message: "not a regular file")
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ioError(path, "read failed")
            }
            if n == 0 { break }
            done += n
        }
        if done < bytes.count { bytes.removeLast(bytes.count - done) }
        return bytes
    }

    /// Replaces the file at `path` with `bytes`. A new file gets `permissions`; an existing
    /// one keeps its own. With `synchronous`, the data and the rename reach the disk before
    /// this returns.
    static func replace(_ path: String, with bytes: [UInt8], permissions: UInt16, synchronous: Bool) throws(ArchiveError) {
        let directory = Self.directory(of: path)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        var mode = mode_t(permissions)
        var existing = stat()
        if stat(path, &existing) == 0 { mode = existing.st_mode & 0o7777 }
        let temporary = directory + "/." + name + ".\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw ioError(path, "cannot create a temporary file in \(directory)") }
        var closed = false
        func discard() {
            if !closed { close(fd) }
            unlink(temporary)
        }
        guard fchmod(fd, mode) == 0 else {
            let error = ioError(path, "cannot set permissions")
            discard()
            throw error
        }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                let error = ioError(path, "write failed")
                discard()
                throw error
            }
            done += n
        }
        if synchronous, fsync(fd) != 0 {
            let error = ioError(path, "fsync failed")
            discard()
            throw error
        }
        closed = true
        guard close(fd) == 0 else {
            let error = ioError(path, "close failed")
            discard()
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let error = ioError(path, "cannot rename the temporary file over it")
            discard()
            throw error
        }
        if synchronous {
            let directoryFD = open(directory, O_RDONLY | O_CLOEXEC)
            if directoryFD >= 0 {
                _ = fsync(directoryFD)
                close(directoryFD)
            }
        }
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func ioError(_ path: String, _ what: String) -> ArchiveError {
        let code = errno
        return ArchiveError(.io, path: path, message: "\(what): \(String(cString: strerror(code))) (errno \(code))")
    }
}
