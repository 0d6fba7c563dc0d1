import Foundation
import ModelCore
import TestSupport
import Testing

@Suite("Logging")
struct LoggingTests {
    @Test func levelsFilterPerSubsystem() {
        withLogCapture { capture in
            let sync = ModelLogger(subsystem: "sync-test")
            let other = ModelLogger(subsystem: "other-test")
            #expect(ModelLog.level == .warning)
            sync.info("hidden: below the default level")
            sync.warning("shown")
            ModelLog.setLevel(.debug, for: "sync-test")
            #expect(ModelLog.level(for: "sync-test") == .debug)
            #expect(sync.isEnabled(.debug) && !sync.isEnabled(.trace))
            sync.debug("debug shown")
            sync.trace("trace hidden")
            other.debug("other hidden")
            other.error("other error shown", metadata: ["code": "7"])
            ModelLog.setLevel(nil, for: "sync-test")
            sync.debug("hidden again")
            let records = capture.records.filter { $0.subsystem.hasSuffix("-test") }
            #expect(records.map(\.message) == ["shown", "debug shown", "other error shown"])
            #expect(records.map(\.level) == [.warning, .debug, .error])
            #expect(records.last?.metadata == ["code": "7"])
        }
    }

    @Test func silenceNestsAndResumeRestores() {
        withLogCapture { capture in
            let log = ModelLogger(subsystem: "silence-test")
            ModelLog.silence()
            ModelLog.silence()
            #expect(ModelLog.isSilenced)
            log.error("silenced 1")
            ModelLog.resume()
            log.error("silenced 2")
            ModelLog.resume()
            ModelLog.resume()  // an extra resume does nothing
            #expect(!ModelLog.isSilenced)
            log.error("after")
            ModelLog.silenced { log.error("inside silenced {}") }
            log.error("after block")
            #expect(capture.records.filter { $0.subsystem == "silence-test" }.map(\.message) == ["after", "after block"])
        }
    }

    @Test func messagesAreNotBuiltWhenTheLevelIsOff() {
        withLogCapture { _ in
            var built = 0
            func expensive() -> String {
                built += 1
                return "expensive"
            }
            let log = ModelLogger(subsystem: "lazy-test")
            log.debug(expensive())
            #expect(built == 0)
            ModelLog.level = .trace
            log.debug(expensive())
            #expect(built == 1)
        }
    }

    @Test func recordsCarryTheirFieldsAndTheDefaultHandlerFormatsThem() {
        let record = LogRecord(level: .notice, subsystem: "x", message: "hello", metadata: ["b": "2", "a": "1"])
        #expect(record.level == .notice && record.subsystem == "x" && record.message == "hello")
        #expect(LogLevel.allCases.sorted() == [.trace, .debug, .info, .notice, .warning, .error])
        #expect(LogLevel.warning.description == "warning")
        StandardErrorLogHandler().log(record)  // writes one line to standard error; must not crash
    }

    @Test func concurrentLoggingLosesNothing() {
        withLogCapture { capture in
            ModelLog.setLevel(.debug, for: "threads-test")
            DispatchQueue.concurrentPerform(iterations: 8) { k in
                let log = ModelLogger(subsystem: "threads-test")
                for n in 0..<250 { log.debug("\(k)-\(n)") }
            }
            #expect(capture.records.filter { $0.subsystem == "threads-test" }.count == 2_000)
        }
    }
}
