import Foundation

/// How important a log message is, from the most detailed to the most severe.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    /// Very detailed tracing.
    case trace
    /// Diagnostics, such as every SQL statement and its duration.
    case debug
    /// Normal events worth a line: a file saved, a migration applied.
    case info
    /// Unusual but expected events.
    case notice
    /// Something went wrong and was recovered from (an autosave that will retry).
    case warning
    /// Something failed.
    case error

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `"debug"`, `"warning"`…
    public var description: String {
        switch self {
        case .trace: "trace"
        case .debug: "debug"
        case .info: "info"
        case .notice: "notice"
        case .warning: "warning"
        case .error: "error"
        }
    }
}

/// One log message, as handed to a ``LogHandler``.
public struct LogRecord: Sendable {
    /// Its level.
    public let level: LogLevel
    /// The part of SwiftModel that wrote it (`"sqlite"`, `"file"`, `"model"`).
    public let subsystem: String
    /// The message.
    public let message: String
    /// Structured details (`["duration_ms": "0.041"]`), for handlers that keep them.
    public let metadata: [String: String]
    /// When it was written.
    public let date: Date

    /// Creates a record.
    public init(level: LogLevel, subsystem: String, message: String, metadata: [String: String] = [:], date: Date = Date()) {
        self.level = level
        self.subsystem = subsystem
        self.message = message
        self.metadata = metadata
        self.date = date
    }
}
