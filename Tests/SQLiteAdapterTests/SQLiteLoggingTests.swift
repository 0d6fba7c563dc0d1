import ModelCore
import SQLiteAdapter
import TestSupport
import Testing

@Suite struct SQLiteLoggingTests {
    /// The statements a store logged (subsystem "sqlite").
    static func statements(_ capture: CapturingLogHandler) -> [LogRecord] {
        capture.records.filter { $0.subsystem == "sqlite" }
    }

    @Test func statementsAreLoggedWithDurationsButNotTheirValues() throws {
        try withLogCapture { capture in
            ModelLog.setLevel(.debug, for: "sqlite")
            var configuration = SQLiteConfiguration()
            configuration.logsStatements = true
            let store = try SQLiteAdapter(path: ":memory:", configuration: configuration)
            try ModelStore.using(store) {
                try Citizen.create(["name": "secret name", "age": 41])
                _ = try Citizen.where(\.name == "secret name").all()
            }
            let records = Self.statements(capture)
            let insert = try #require(records.first { $0.message.hasPrefix("INSERT INTO \"citizens\"") })
            #expect(!insert.message.contains("secret name"))  // values are not logged unless asked
            #expect(insert.metadata["bound"].flatMap { Int($0) } ?? 0 >= 2)
            #expect(insert.level == .debug)
            #expect(insert.metadata["duration_ms"].flatMap(Double.init) != nil)
            #expect(insert.message.hasSuffix(" ms)"))
            #expect(records.contains { $0.message.hasPrefix("SELECT") && $0.message.contains("\"citizens\"") })
            #expect(!records.contains { $0.message.contains("secret name") })
        }
    }

    @Test func boundValuesAreLoggedWhenAsked() throws {
        try withLogCapture { capture in
            ModelLog.setLevel(.debug, for: "sqlite")
            var configuration = SQLiteConfiguration()
            configuration.logsStatements = true
            configuration.logsBoundValues = true
            let store = try SQLiteAdapter(path: ":memory:", configuration: configuration)
            try ModelStore.using(store) { try Citizen.create(["name": "Ann O'Neil", "age": 7]) }
            #expect(Self.statements(capture).contains { $0.message.contains("'Ann O''Neil'") && $0.metadata["bound"] == nil })
        }
    }

    @Test func nothingIsLoggedWhenTheLevelIsOffOrTheOptionIsNot() throws {
        try withLogCapture { capture in
            var configuration = SQLiteConfiguration()
            configuration.logsStatements = true
            let quiet = try SQLiteAdapter(path: ":memory:", configuration: configuration)
            try ModelStore.using(quiet) { try Citizen.create(["name": "a"]) }  // level is .warning
            ModelLog.setLevel(.debug, for: "sqlite")
            let unlogged = try SQLiteAdapter(path: ":memory:")  // logsStatements is off
            try ModelStore.using(unlogged) { try Citizen.create(["name": "b"]) }
            ModelLog.silenced {
                _ = try? ModelStore.using(quiet) { try Citizen.create(["name": "c"]) }
            }
            #expect(Self.statements(capture).isEmpty)
        }
    }
}
