import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PostgresNIO

// GET /todos/:id, GET /todos?done=…&limit=… (with X-Total-Count), POST /todos — the
// routes the load benchmark measures, over the table TodoServer creates, by hand: prepared
// statements on a PostgresClient pool, Codable JSON.
//
//   HandWrittenTodoServer --postgres postgresql://user@host:port/db [--port 8081] [--connections 16]

struct Todo: Codable, Sendable {
    var id: Int64
    var title: String
    var done: Bool
    var due: Date?
    var created_at: Date?
    var updated_at: Date?
}

struct NewTodo: Decodable {
    var title: String
    var done: Bool?
    var due: Date?
}

enum SQL {
    static let columns = "id, title, done, due, created_at, updated_at"

    struct Find: PostgresPreparedStatement {
        static let sql = "SELECT \(SQL.columns) FROM todos WHERE id = $1"
        typealias Row = (Int64, String, Bool, Date?, Date?, Date?)
        var id: Int64
        func makeBindings() throws -> PostgresBindings {
            var b = PostgresBindings(capacity: 1)
            b.append(id)
            return b
        }
        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    struct List: PostgresPreparedStatement {
        static let sql = "SELECT \(SQL.columns) FROM todos WHERE done = $1 ORDER BY id LIMIT $2"
        typealias Row = (Int64, String, Bool, Date?, Date?, Date?)
        var done: Bool
        var limit: Int64
        func makeBindings() throws -> PostgresBindings {
            var b = PostgresBindings(capacity: 2)
            b.append(done)
            b.append(limit)
            return b
        }
        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    struct Count: PostgresPreparedStatement {
        static let sql = "SELECT count(*) FROM todos WHERE done = $1"
        typealias Row = Int64
        var done: Bool
        func makeBindings() throws -> PostgresBindings {
            var b = PostgresBindings(capacity: 1)
            b.append(done)
            return b
        }
        func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self) }
    }

    struct Insert: PostgresPreparedStatement {
        static let sql = "INSERT INTO todos (title, done, due, created_at, updated_at) VALUES ($1, $2, $3, $4, $4) RETURNING id"
        typealias Row = Int64
        var title: String
        var done: Bool
        var due: Date?
        var now: Date
        func makeBindings() throws -> PostgresBindings {
            var b = PostgresBindings(capacity: 4)
            b.append(title)
            b.append(done)
            b.append(due)
            b.append(now)
            return b
        }
        func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self) }
    }

    static func todo(_ r: (Int64, String, Bool, Date?, Date?, Date?)) -> Todo {
        Todo(id: r.0, title: r.1, done: r.2, due: r.3, created_at: r.4, updated_at: r.5)
    }
}

func json(_ status: HTTPResponse.Status, _ value: some Encodable, headers: HTTPFields = [:]) throws -> Response {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    var fields = headers
    fields[.contentType] = "application/json; charset=utf-8"
    return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
}

func error(_ status: HTTPResponse.Status, _ message: String) throws -> Response {
    try json(status, ["error": message])
}

func main() async throws {
    var arguments = CommandLine.arguments.dropFirst()[...]
    var url = ProcessInfo.processInfo.environment["DATABASE_URL"] ?? ""
    var port = 8081
    var connections = 16
    while let flag = arguments.popFirst() {
        switch flag {
        case "--postgres": url = arguments.popFirst() ?? url
        case "--port": port = Int(arguments.popFirst() ?? "") ?? port
        case "--connections": connections = Int(arguments.popFirst() ?? "") ?? connections
        default:
            FileHandle.standardError.write(Data("unknown option \(flag)\n".utf8))
            exit(2)
        }
    }
    guard let components = URLComponents(string: url), let host = components.host else {
        FileHandle.standardError.write(Data("usage: HandWrittenTodoServer --postgres postgresql://user@host:port/db\n".utf8))
        exit(2)
    }
    var quiet = Logger(label: "HandWrittenTodoServer")
    quiet.logLevel = .error
    let logger = quiet
    let listenPort = port
    var configuration = PostgresClient.Configuration(
        host: host, port: components.port ?? 5432, username: components.user ?? "postgres", password: components.password,
        database: String(components.path.dropFirst()), tls: .disable)
    configuration.options.maximumConnections = connections
    let client = PostgresClient(configuration: configuration, backgroundLogger: logger)

    let router = Router()
    router.get("/todos/:id") { _, context in
        guard let id = context.parameters.get("id", as: Int64.self) else { return try error(.notFound, "no such todo") }
        for try await row in try await client.execute(SQL.Find(id: id), logger: logger) {
            return try json(.ok, SQL.todo(row))
        }
        return try error(.notFound, "no todo with id \(id)")
    }
    router.get("/todos") { request, _ in
        let done = request.uri.queryParameters.get("done").map { $0 == "true" } ?? false
        let limit = min(Int64(request.uri.queryParameters.get("limit") ?? "") ?? 30, 1_000)
        var todos: [Todo] = []
        for try await row in try await client.execute(SQL.List(done: done, limit: limit), logger: logger) { todos.append(SQL.todo(row)) }
        var total: Int64 = 0
        for try await count in try await client.execute(SQL.Count(done: done), logger: logger) { total = count }
        var headers = HTTPFields()
        if let name = HTTPField.Name("X-Total-Count") { headers[name] = String(total) }
        return try json(.ok, todos, headers: headers)
    }
    router.post("/todos") { request, context in
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let body = try await request.body.collect(upTo: 1 << 20)
        guard let new = try? decoder.decode(NewTodo.self, from: Data(buffer: body)) else { return try error(.badRequest, "malformed todo") }
        guard !new.title.isEmpty, new.title.count <= 200 else { return try error(.unprocessableContent, "title is invalid") }
        let now = Date()
        var id: Int64 = 0
        for try await row in try await client.execute(SQL.Insert(title: new.title, done: new.done ?? false, due: new.due, now: now), logger: logger) {
            id = row
        }
        let todo = Todo(id: id, title: new.title, done: new.done ?? false, due: new.due, created_at: now, updated_at: now)
        var headers = HTTPFields()
        headers[.location] = "/todos/\(id)"
        return try json(.created, todo, headers: headers)
    }
    let app = Application(
        router: router, configuration: .init(address: .hostname("127.0.0.1", port: listenPort), serverName: "HandWrittenTodoServer"),
        services: [client],
        onServerRunning: { channel in
            FileHandle.standardOutput.write(Data("HandWrittenTodoServer listening on http://127.0.0.1:\(channel.localAddress?.port ?? listenPort)\n".utf8))
        }, logger: logger)
    try await app.runService()
}

try await main()
