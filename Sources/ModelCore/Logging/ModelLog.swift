import Synchronization

/// SwiftModel's logging configuration: where records go, and which levels each subsystem
/// writes.
///
/// Subsystems: `"sqlite"` (statements at `.debug`, with their duration), `"file"`
/// (FileAdapter loads and saves at `.info`, autosave failures at `.warning`) and
/// `"model"`. By default records at `.warning` and above go to standard error.
///
/// ```swift
/// ModelLog.setLevel(.debug, for: "sqlite")   // every SQL statement
/// ModelLog.setLevel(.info, for: "file")     // FileAdapter loads and saves
/// ModelLog.handler = MyBridge()              // to swift-log, OSLog, a file…
///
/// ModelLog.silence()                         // nothing at all…
/// ModelLog.resume()                          // …until resumed (calls nest)
/// try ModelLog.silenced { try importEverything() }
/// ```
///
/// ## Threading
/// Thread-safe. The configuration is guarded by a lock; a disabled level is rejected
/// with one atomic load, so logging calls cost almost nothing when off.
public enum ModelLog {
    private struct Configuration {
        var handler: any LogHandler = StandardErrorLogHandler()
        var level: LogLevel = .warning
        var subsystemLevels: [String: LogLevel] = [:]
        var silenced = 0

        /// The lowest level any subsystem writes (`Int.max` when nothing is written).
        var threshold: Int {
            if silenced > 0 { return Int.max }
            return subsystemLevels.values.reduce(level.rawValue) { min($0, $1.rawValue) }
        }
    }

    private static let configuration = Locked(Configuration())
    private static let threshold = Atomic<Int>(LogLevel.warning.rawValue)

    private static func update(_ change: (inout Configuration) -> Void) {
        configuration.withLock { configuration in
            change(&configuration)
            threshold.store(configuration.threshold, ordering: .releasing)
        }
    }

    /// Where records go; by default ``StandardErrorLogHandler``.
    public static var handler: any LogHandler {
        get { configuration.withLock { $0.handler } }
        set { update { $0.handler = newValue } }
    }

    /// The lowest level written by subsystems without a level of their own (default `.warning`).
    public static var level: LogLevel {
        get { configuration.withLock { $0.level } }
        set { update { $0.level = newValue } }
    }

    /// Sets the lowest level `subsystem` writes; `nil` goes back to ``level``.
    public static func setLevel(_ level: LogLevel?, for subsystem: String) {
        update { $0.subsystemLevels[subsystem] = level }
    }

    /// The lowest level `subsystem` writes.
    public static func level(for subsystem: String) -> LogLevel {
        configuration.withLock { $0.subsystemLevels[subsystem] ?? $0.level }
    }

    /// Stops all logging until a matching ``resume()``. Calls nest.
    public static func silence() { update { $0.silenced += 1 } }

    /// Undoes one ``silence()``; extra calls do nothing.
    public static func resume() { update { $0.silenced = max(0, $0.silenced - 1) } }

    /// Whether logging is silenced.
    public static var isSilenced: Bool { configuration.withLock { $0.silenced > 0 } }

    /// Runs `body` with logging silenced.
    public static func silenced<R>(_ body: () throws -> R) rethrows -> R {
        silence()
        defer { resume() }
        return try body()
    }

    /// Puts back the defaults: standard error, `.warning`, no subsystem levels, not silenced.
    public static func reset() { update { $0 = Configuration() } }

    /// Whether a record at `level` from `subsystem` would be written.
    @inline(__always)
    public static func isEnabled(_ level: LogLevel, for subsystem: String) -> Bool {
        guard level.rawValue >= threshold.load(ordering: .acquiring) else { return false }
        return configuration.withLock { configuration in
            configuration.silenced == 0 && level >= (configuration.subsystemLevels[subsystem] ?? configuration.level)
        }
    }

    /// Writes a record if its level is enabled for its subsystem.
    public static func log(_ record: LogRecord) {
        let handler: (any LogHandler)? = configuration.withLock { configuration in
            guard configuration.silenced == 0,
                record.level >= (configuration.subsystemLevels[record.subsystem] ?? configuration.level)
            else { return nil }
            return configuration.handler
        }
        handler?.log(record)
    }
}

/// Writes log records for one subsystem; messages are built only when their level is on.
///
/// ```swift
/// let log = ModelLogger(subsystem: "sync")
/// log.info("imported \(count) records")
/// if log.isEnabled(.debug) { log.debug("payload: \(expensiveDump())") }
/// ```
public struct ModelLogger: Sendable {
    /// The subsystem's name.
    public let subsystem: String

    /// A logger for `subsystem`.
    public init(subsystem: String) { self.subsystem = subsystem }

    /// Whether `level` is written for this subsystem.
    @inline(__always) public func isEnabled(_ level: LogLevel) -> Bool { ModelLog.isEnabled(level, for: subsystem) }

    /// Logs at `level` (the message is evaluated only when the level is on).
    public func log(_ level: LogLevel, _ message: @autoclosure () -> String, metadata: [String: String] = [:]) {
        guard isEnabled(level) else { return }
        ModelLog.log(LogRecord(level: level, subsystem: subsystem, message: message(), metadata: metadata))
    }

    /// Logs at `.trace`.
    public func trace(_ message: @autoclosure () -> String, metadata: [String: String] = [:]) {
        log(.trace, message(), metadata: metadata)
    }
    /// Logs at `.debug`.
    public func debug(_ message: @autoclosure () -> String, metadata: [String: String] = [:]) {
        log(.debug, message(), metadata: metadata)
    }
    /// Logs at `.info`.
    public func info(_ message: @autoclosure () -> String, metadata: [String: String] = [:]) {
        log(.info, message(), metadata: metadata)
    }
    /// Logs at `.notice`.
    public func notice(_ message: @autoclosure () -> String, metadata: [String: String] = [:]) {
        log(.notice, message(), metadata: metadata)
    }
    /// Logs at `.warning`.
    public func warning(_ message: @autoclosure () -> String, metadata: [String: String] = [:]) {
        log(.warning, message(), metadata: metadata)
    }
    /// Logs at `.error`.
    public func error(_ message: @autoclosure () -> String, metadata: [String: String] = [:]) {
        log(.error, message(), metadata: metadata)
    }
}
