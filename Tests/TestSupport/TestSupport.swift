import Foundation

/// A fresh temporary directory, removed after `body`.
public func withTemporaryDirectory<R>(_ body: (URL) throws -> R) throws -> R {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("swiftmodel-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try body(url)
}

/// ``withTemporaryDirectory(_:)-(_)`` for an async body.
public func withTemporaryDirectory<R>(_ body: (URL) async throws -> R) async throws -> R {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("swiftmodel-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try await body(url)
}

/// Removes a SQLite database file and the files SQLite keeps beside it (`-wal`, `-shm`,
/// `-journal`), those that exist. Close every connection to it first: SQLite deletes its
/// WAL and shared-memory files itself only when the last connection closes cleanly.
public func removeSQLiteFiles(at path: String) throws {
    for file in sqliteFiles(at: path) { try FileManager.default.removeItem(atPath: file) }
}

/// The SQLite files of the database at `path` that still exist (the database, `-wal`,
/// `-shm`, `-journal`), for tests that check nothing is left behind.
public func sqliteFiles(at path: String) -> [String] {
    ["", "-wal", "-shm", "-journal"].map { path + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
}

/// Runs blocking work (spawning and killing processes, sleeping) on a thread of its own,
/// so a long test never holds a cooperative thread that other tests' tasks need.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

/// Runs a command found on `PATH` (or an absolute path) and returns its exit status and
/// standard output (standard error is appended, so failures explain themselves).
public func runTool(_ command: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    if command.hasPrefix("/") {
        process.executableURL = URL(fileURLWithPath: command)
        process.arguments = arguments
    } else {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [command] + arguments
    }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// The `CrashHelper` executable, built next to the test bundle (nil if missing).
public var crashHelper: URL? {
    let directory = Bundle.main.executableURL?.deletingLastPathComponent()
        ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let url = directory.appendingPathComponent("CrashHelper")
    return FileManager.default.isExecutableFile(atPath: url.path) ? url : nil
}

/// Starts `CrashHelper <mode> <path> <extraArguments…>`, waits for its first committed round, lets it run
/// for a random `0.5...maxMilliseconds` ms, kills it with SIGKILL, and returns the last
/// generation it reported as committed and whether the kill (not an exit) ended it.
public func killCrashHelper(
    _ helper: URL, mode: String, path: String, extraArguments: [String] = [], maxMilliseconds: UInt32 = 80
) throws -> (lastCommitted: Int, killed: Bool) {
    let process = Process()
    process.executableURL = helper
    process.arguments = [mode, path] + extraArguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    var seen = output.fileHandleForReading.availableData  // the first "saved" line
    usleep(UInt32.random(in: 500...(maxMilliseconds * 1_000)))
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    seen += output.fileHandleForReading.readDataToEndOfFile()
    let last = String(decoding: seen, as: UTF8.self).split(separator: "\n").compactMap { line in
        line.hasPrefix("saved ") ? Int(line.dropFirst(6)) : nil
    }.max() ?? 0
    return (last, process.terminationReason == .uncaughtSignal)
}

/// How many rounds a reliability test runs: `ci` times `SWIFTMODEL_RELIABILITY_SCALE`
/// (default 1; `.ci/run --long` sets 20).
public func reliabilityRounds(_ ci: Int) -> Int {
    let scale = ProcessInfo.processInfo.environment["SWIFTMODEL_RELIABILITY_SCALE"].flatMap(Int.init) ?? 1
    return ci * max(1, scale)
}

/// Prints one line of figures for CI logs and `Docs/Testing.md` (`reliability: …`).
public func reportReliability(_ line: String) {
    print("reliability: \(line)")
}

/// One damaged version of a file, for corruption tests.
public enum Damage: Sendable {
    /// The file holds these bytes.
    case bytes([UInt8])
    /// A directory stands where the file was.
    case directory

    /// Puts this damage at `url` (replacing whatever is there).
    public func place(at url: URL) throws {
        try? FileManager.default.removeItem(at: url)
        switch self {
        case .bytes(let bytes): try Data(bytes).write(to: url)
        case .directory: try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        }
    }
}

/// `count` damaged versions of `original`, in equal parts: random bit flips (1–8 bytes),
/// truncations, zeroed blocks (512–8192 bytes), and appended garbage (1–4096 bytes); plus
/// an empty file and a directory in its place. Each has a name for messages.
public func damagedVariants(of original: [UInt8], count: Int) -> [(name: String, damage: Damage)] {
    var random = SystemRandomNumberGenerator()
    var variants: [(String, Damage)] = [("empty", .bytes([])), ("directory", .directory)]
    while variants.count < count {
        var bytes = original
        let kind = variants.count % 4
        switch kind {
        case 0 where !bytes.isEmpty:
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
            }
            variants.append(("flips", .bytes(bytes)))
        case 1 where !bytes.isEmpty:
            let length = Int.random(in: 0..<bytes.count, using: &random)
            variants.append(("cut at \(length)", .bytes(Array(bytes.prefix(length)))))
        case 2 where !bytes.isEmpty:
            let length = Int.random(in: 512...8192, using: &random)
            let start = Int.random(in: 0..<bytes.count, using: &random)
            for k in start..<min(bytes.count, start + length) { bytes[k] = 0 }
            variants.append(("zeroed \(length) at \(start)", .bytes(bytes)))
        default:
            bytes += (0..<Int.random(in: 1...4096, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            variants.append(("garbage appended", .bytes(bytes)))
        }
    }
    return variants
}

/// Runs `rounds` rounds of ``killCrashHelper(_:mode:path:extraArguments:maxMilliseconds:)``
/// (each on a thread of its own);
/// after each kill, `check` gets the round and the last generation the helper's side log
/// (`<path>.acknowledged`) acknowledged, and returns the generation it found. Returns the
/// kills, and how many rounds found the commit after the acknowledged one (on disk before
/// its acknowledgement).
public func runKillRounds(
    _ helper: URL, mode: String, path: String, extraArguments: [String] = [], rounds: Int,
    check: (_ round: Int, _ acknowledged: Int) throws -> Int
) async throws -> (kills: Int, inFlight: Int) {
    var kills = 0, inFlight = 0
    for round in 0..<rounds {
        // The kill (a process run, a sleep, a wait) blocks for up to 80 ms a round: on a
        // thread of its own, 100 rounds do not hold the cooperative pool for a minute.
        let killed = try await onOwnThread {
            try killCrashHelper(helper, mode: mode, path: path, extraArguments: extraArguments).killed
        }
        if killed { kills += 1 }
        let log = (try? String(contentsOfFile: path + ".acknowledged", encoding: .utf8)) ?? ""
        let acknowledged = log.split(separator: "\n").compactMap { Int($0) }.last ?? 0
        let found = try check(round, acknowledged)
        guard found == acknowledged || found == acknowledged + 1 else {
            throw KillRoundFailure(message: "round \(round) of \(mode): generation \(found) after \(acknowledged) acknowledged")
        }
        if found > acknowledged { inFlight += 1 }
    }
    guard kills == rounds else { throw KillRoundFailure(message: "\(mode): the helper exited by itself \(rounds - kills) times") }
    return (kills, inFlight)
}

/// A kill round that found an older or newer generation than allowed.
public struct KillRoundFailure: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
