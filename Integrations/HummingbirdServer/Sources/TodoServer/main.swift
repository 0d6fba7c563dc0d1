import Foundation
import Hummingbird
import HummingbirdModelServer
import PostgresAdapter
import SQLiteAdapter
import Synchronization
import TodoModels

// TodoServer: todos and their items over HTTP, on SQLite (a file beside it) or PostgreSQL.
//
//   swift run -c release --package-path Integrations/HummingbirdServer TodoServer [--port 8080]
//       [--host 127.0.0.1] [--sqlite todos.sqlite | --postgres postgresql://…]
//       [--idle-timeout 30] [--body-timeout 30] [--max-connections N]
//
// DATABASE_URL works as --postgres. Port 0 picks a free port; the first line printed
// names the address ("TodoServer listening on http://127.0.0.1:PORT").

struct Options {
    var host = "127.0.0.1"
    var port = 8080
    var sqlite = "todos.sqlite"
    var postgres = ProcessInfo.processInfo.environment["DATABASE_URL"]
    /// PostgreSQL connections in the pool.
    var connections = 16
    /// Idle and slow clients, and the connection cap (see ServerLimits).
    var limits = ServerLimits()
    /// Test fault: exit right after this many creates have committed, before answering.
    var exitAfterCreates: Int?

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        func value(_ flag: String) throws -> String {
            guard let value = rest.popFirst() else { throw UsageError(message: "\(flag) needs a value") }
            return value
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--host": host = try value(flag)
            case "--port":
                let text = try value(flag)
                guard let port = Int(text), (0...65535).contains(port) else { throw UsageError(message: "--port \(text) is not a port") }
                self.port = port
            case "--sqlite": sqlite = try value(flag)
            case "--postgres": postgres = try value(flag)
            case "--connections":
                let text = try value(flag)
                guard let count = Int(text), count > 0 else { throw UsageError(message: "--connections \(text) is not a count") }
                connections = count
            case "--idle-timeout", "--body-timeout":
                let text = try value(flag)
                guard let seconds = Double(text), seconds > 0, seconds < 86_400 else {
                    throw UsageError(message: "\(flag) \(text) is not a number of seconds")
                }
                if flag == "--idle-timeout" { limits.idleTimeout = .milliseconds(Int64(seconds * 1000)) } else {
                    limits.bodyTimeout = .milliseconds(Int64(seconds * 1000))
                }
            case "--max-connections":
                let text = try value(flag)
                guard let count = Int(text), count > 0 else { throw UsageError(message: "--max-connections \(text) is not a count") }
                limits.maxConnections = count
            case "--exit-after-creates": exitAfterCreates = Int(try value(flag))
            case "--help", "-h":
                print(
                    "usage: TodoServer [--port 8080] [--host 127.0.0.1] [--sqlite todos.sqlite | --postgres URL [--connections 16]]"
                        + " [--idle-timeout 30] [--body-timeout 30] [--max-connections N]")
                exit(0)
            default: throw UsageError(message: "unknown option \(flag)")
            }
        }
    }
}

struct UsageError: Error, CustomStringConvertible {
    let message: String
    var description: String { "TodoServer: \(message) (see --help)" }
}

/// Counts committed creates for `--exit-after-creates`.
let creates = Atomic<Int>(0)

func main() async throws {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    let store: any PersistenceAdapter
    let storeName: String
    if let url = options.postgres {
        var configuration = PostgresConfiguration(url)
        configuration.maximumConnections = options.connections
        // This server observes nothing and nobody listens to it: no LISTEN connection, no
        // NOTIFY per commit (turn publishesChanges on for apps that observe this database).
        configuration.listensForChanges = false
        configuration.publishesChanges = false
        store = try PostgresAdapter(configuration)
        storeName = "PostgreSQL"
    } else {
        store = try SQLiteAdapter(path: options.sqlite)
        storeName = "SQLite \(options.sqlite)"
    }
    var configuration = ModelResources.Configuration()
    if let limit = options.exitAfterCreates {
        configuration.afterCommit = { request, response in
            guard request.method == "POST", response.status == 201 else { return }
            if creates.add(1, ordering: .relaxed).newValue >= limit { _exit(3) }
        }
    }
    let resources = try TodoAPI.resources(store: store, configuration: configuration)
    let router = Router()
    router.addResources(resources, limits: options.limits)
    let app = Application(
        router: router, server: options.limits.server,
        configuration: options.limits.applied(to: .init(address: .hostname(options.host, port: options.port), serverName: "TodoServer")),
        onServerRunning: { channel in
            let port = channel.localAddress?.port ?? options.port
            FileHandle.standardOutput.write(Data("TodoServer listening on http://\(options.host):\(port) (\(storeName))\n".utf8))
        })
    try await app.runService()
}

do {
    try await main()
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
