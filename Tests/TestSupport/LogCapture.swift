import ModelCore

/// Serialises tests that change the process-wide logging configuration.
private let logConfigurationLock = Locked(())

/// Runs `body` with every log record captured, then restores the default configuration.
/// Tests in any target that touch ``ModelLog`` go through here, one at a time.
public func withLogCapture<R>(_ body: (CapturingLogHandler) throws -> R) rethrows -> R {
    try logConfigurationLock.withLock { _ in
        let capture = CapturingLogHandler()
        ModelLog.reset()
        ModelLog.handler = capture
        defer { ModelLog.reset() }
        return try body(capture)
    }
}
