import Foundation

/// TodoServer run as a separate process (the executable this package builds), on a
/// SQLite file: started, killed and restarted on the same port as a real deployment is.
final class TodoServerProcess {
    let database: String
    private(set) var port: Int
    private var process: Process?

    /// The TodoServer executable beside the test bundle.
    static var executable: URL {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [bundle, bundle.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("TodoServer")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return bundle.appendingPathComponent("TodoServer")
    }

    /// The soft descriptor limit the process runs under (`ulimit -n`), when set.
    private let fileLimit: Int?

    /// Starts a server on a free port (or `port`) and a fresh database file (or `database`),
    /// under a descriptor limit of `fileLimit` when given.
    init(database: String? = nil, port: Int = 0, arguments: [String] = [], fileLimit: Int? = nil) throws {
        self.database = database ?? FileManager.default.temporaryDirectory.appendingPathComponent("todo-\(UUID()).sqlite").path
        self.port = port
        self.fileLimit = fileLimit
        try start(arguments)
    }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/") }

    /// Starts the process and waits (up to 30 s) for its "listening" line.
    func start(_ arguments: [String] = []) throws {
        let process = Process()
        let serverArguments = ["--port", String(port), "--sqlite", database] + arguments
        if let fileLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n \(fileLimit) && exec \"$0\" \"$@\"", Self.executable.path] + serverArguments
        } else {
            process.executableURL = Self.executable
            process.arguments = serverArguments
        }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        var seen = ""
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, process.isRunning {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { continue }
            seen += String(decoding: chunk, as: UTF8.self)
            if let range = seen.range(of: #"listening on http://127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
                let text = seen[range]
                port = Int(text.split(separator: ":").last ?? "") ?? port
                // Keep draining its output so the process never blocks on a full pipe.
                output.fileHandleForReading.readabilityHandler = { _ = $0.availableData }
                return
            }
        }
        process.terminate()
        throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "TodoServer did not start: \(seen)"])
    }

    /// Waits for the process to end by itself (a fault flag), up to `seconds`.
    func waitForExit(_ seconds: Double = 30) -> Int32? {
        guard let process else { return nil }
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    /// Stops the process (SIGTERM: a graceful shutdown) and waits for it.
    func stop() {
        guard let process, process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit {
        stop()
        // The database and the files SQLite keeps beside it (a killed server leaves them).
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: database + suffix) }
    }
}
