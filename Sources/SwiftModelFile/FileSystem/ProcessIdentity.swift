#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// This process's id, for temporary file names that never collide between processes.
enum ProcessIdentity {
    static let current = getpid()
}
