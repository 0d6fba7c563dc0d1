#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where log records go. Implement it to bridge SwiftModel's logs to your logging library.
///
/// <!-- snippet: skip swift-log is not a dependency of this package; the bridge lives in apps that use it -->
/// ```swift
/// import Logging   // swift-log
///
/// struct SwiftLogBridge: LogHandler {
///     let logger = Logger(label: "swiftmodel")
///     func log(_ record: LogRecord) {
///         let level: Logger.Level = record.level >= .error ? .error : record.level >= .warning ? .warning : .debug
///         logger.log(level: level, "\(record.message)", metadata: record.metadata.mapValues { .string($0) },
///                    source: record.subsystem)
///     }
/// }
/// ModelLog.handler = SwiftLogBridge()
/// ```
///
/// Handlers are called on the thread that logs, outside SwiftModel's locks, and must be
/// thread-safe.
public protocol LogHandler: Sendable {
    /// Writes one record (already filtered by level).
    func log(_ record: LogRecord)
}

/// The default handler: one line per record on standard error,
/// `2026-11-22T10:15:03.120Z [sqlite] debug: SELECT … (0.041 ms)`.
public struct StandardErrorLogHandler: LogHandler {
    /// Creates the handler.
    public init() {}

    public func log(_ record: LogRecord) {
        var line = DateCodec.iso8601String(record.date) + " [\(record.subsystem)] \(record.level): \(record.message)"
        if !record.metadata.isEmpty {
            line += " " + record.metadata.keys.sorted().map { "\($0)=\(record.metadata[$0] ?? "")" }.joined(separator: " ")
        }
        line += "\n"
        // One write per record, so lines from several threads do not interleave.
        var bytes = Array(line.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = write(2, base + offset, buffer.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
    }
}

/// A handler that keeps records in memory, for tests and diagnostics.
///
/// ```swift
/// let capture = CapturingLogHandler()
/// ModelLog.handler = capture
/// ModelLog.setLevel(.debug, for: "sqlite")
/// try Todo.create(["name": "walk"])
/// capture.records.map(\.message)      // the SQL statements run
/// ```
public final class CapturingLogHandler: LogHandler {
    private let stored = Locked<[LogRecord]>([])

    /// Creates an empty capture.
    public init() {}

    public func log(_ record: LogRecord) { stored.withLock { $0.append(record) } }

    /// Every record received, oldest first.
    public var records: [LogRecord] { stored.withLock { $0 } }

    /// Forgets the records received so far.
    public func removeAll() { stored.withLock { $0.removeAll() } }
}
