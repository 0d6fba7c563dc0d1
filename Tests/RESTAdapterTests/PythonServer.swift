import Foundation
import RESTAdapter
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A server written in Python (`http.server`, not our socket code) for tests against
/// servers we did not write. The script prints its port(s) on its first line and binds
/// loopback only. It exits when its standard input closes — on ``stop()`` or when the test
/// process ends — because `terminate()` may only reach a launcher (pyenv's `python3` is a
/// shell script that starts the interpreter as its child).
struct PythonServer {
    let ports: [Int]
    /// The words of the first line the script printed (ports, then anything else it told).
    let words: [String]
    let process: Process
    private let input = Pipe()

    /// Runs `script` with python3 and reads the ports it prints (space-separated).
    init(_ script: String) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let watchdog = "import os, sys, threading\nthreading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()\n"
        process.arguments = ["python3", "-c", watchdog + script]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            line += byte
        }
        words = String(decoding: line, as: UTF8.self).split(separator: " ").map(String.init)
        ports = words.prefix { Int($0) != nil }.compactMap { Int($0) }
        if ports.isEmpty { process.terminate() }
        try #require(!ports.isEmpty, "python3 did not start the server")
    }

    /// `http://127.0.0.1:<port>` of the `k`th port printed.
    func url(_ k: Int = 0) -> URL { URL(string: "http://127.0.0.1:\(ports[k])") ?? URL(fileURLWithPath: "/") }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.terminate()
    }

    /// GETs `url` with a plain URLSession (not the adapter) and returns the body.
    static func get(_ url: URL) throws -> Data {
        let done = DispatchSemaphore(value: 0)
        let result = Locked<Data?>(nil)
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        session.dataTask(with: url) { data, _, _ in
            result.withLock { $0 = data }
            done.signal()
        }.resume()
        _ = done.wait(timeout: .now() + 10)
        return try #require(result.withLock { $0 }, "no answer from \(url)")
    }
}
