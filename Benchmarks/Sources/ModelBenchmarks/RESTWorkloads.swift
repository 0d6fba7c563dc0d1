import Dispatch
import Foundation
import RESTAdapter
import RESTTestServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `--rest N`: N sequential finds and N creates through RESTAdapter, and the same spread
/// over 8 concurrent tasks, against raw `URLSession` requests parsed with
/// `JSONSerialization` — the same in-process server, the same run.
enum RESTWorkloads {
    final class RestItem: Model {
        @Column var name: String = ""
        @Column var age: Int = 0
        init() {}
    }

    static func run(_ n: Int) throws { try runAsync { try await measure(n) } }

    private static func measure(_ n: Int) async throws {
        let server = try RESTTestServer()
        defer { server.stop() }
        server.seed("rest_items", (0..<n).map { ["name": .string("item \($0)"), "age": .int(Int64($0 % 90))] })
        let adapter = RESTAdapter(baseURL: server.baseURL)
        let session = URLSession(configuration: .ephemeral)
        let base = server.baseURL.absoluteString
        let ids = (0..<n).map { Int64($0 % n + 1) }

        // Warm up connections on both sides.
        _ = try await rawFind(session, base, 1)
        _ = try await RestItem.find(1, in: adapter)

        print("REST against the in-process server, n = \(n) (ratio: SwiftModel / raw URLSession + JSONSerialization)")
        let rawFinds = try await time { for id in ids { blackHole(try await rawFind(session, base, id)) } }
        let modelFinds = try await time { for id in ids { blackHole(try await RestItem.find(id, in: adapter)?.age ?? 0) } }
        report("find, sequential", n, rawFinds, modelFinds)

        let rawCreates = try await time { for k in 0..<n { blackHole(try await rawCreate(session, base, k)) } }
        let modelCreates = try await time {
            for k in 0..<n { blackHole(try await RestItem.create(["name": .string("m\(k)"), "age": .int(Int64(k % 90))], in: adapter).id ?? 0) }
        }
        report("create, sequential", n, rawCreates, modelCreates)

        let tasks = 8
        let rawConcurrent = try await time {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for t in 0..<tasks {
                    group.addTask { for k in stride(from: t, to: n, by: tasks) { blackHole(try await rawFind(session, base, ids[k])) } }
                }
                try await group.waitForAll()
            }
        }
        let modelConcurrent = try await time {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for t in 0..<tasks {
                    group.addTask {
                        for k in stride(from: t, to: n, by: tasks) { blackHole(try await RestItem.find(ids[k], in: adapter)?.age ?? 0) }
                    }
                }
                try await group.waitForAll()
            }
        }
        report("find, 8 concurrent tasks", n, rawConcurrent, modelConcurrent)

        let rawCreatesConcurrent = try await time {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for t in 0..<tasks {
                    group.addTask { for k in stride(from: t, to: n, by: tasks) { blackHole(try await rawCreate(session, base, k)) } }
                }
                try await group.waitForAll()
            }
        }
        let modelCreatesConcurrent = try await time {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for t in 0..<tasks {
                    group.addTask {
                        for k in stride(from: t, to: n, by: tasks) {
                            blackHole(try await RestItem.create(["name": .string("c\(k)"), "age": .int(Int64(k % 90))], in: adapter).id ?? 0)
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        report("create, 8 concurrent tasks", n, rawCreatesConcurrent, modelCreatesConcurrent)
    }

    private static func time(_ body: () async throws -> Void) async throws -> Duration {
        let start = ContinuousClock.now
        try await body()
        return ContinuousClock.now - start
    }

    private static func report(_ name: String, _ n: Int, _ raw: Duration, _ model: Duration) {
        func us(_ d: Duration) -> Double { (Double(d.components.seconds) * 1e18 + Double(d.components.attoseconds)) / 1e12 / Double(n) }
        print(
            String(
                format: "raw %8.1f µs/request   SwiftModel %8.1f µs/request   ratio %.2f×", us(raw), us(model), us(model) / us(raw))
                .prefixed(by: "  " + name.padding(toLength: 28, withPad: " ", startingAt: 0)))
    }

    struct BenchFailure: Error { let message: String }

    /// GET /rest_items/:id, parsed to a dictionary; returns the age.
    private static func rawFind(_ session: URLSession, _ base: String, _ id: Int64) async throws -> Int {
        guard let url = URL(string: "\(base)/rest_items/\(id)") else { throw BenchFailure(message: "url") }
        var request = URLRequest(url: url)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let (data, response) = try await session.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200,
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any], let age = object["age"] as? Int
        else { throw BenchFailure(message: "bad find response") }
        return age
    }

    /// POST /rest_items with a JSONSerialization body; returns the new id.
    private static func rawCreate(_ session: URLSession, _ base: String, _ k: Int) async throws -> Int {
        guard let url = URL(string: "\(base)/rest_items") else { throw BenchFailure(message: "url") }
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.httpBody = try JSONSerialization.data(withJSONObject: ["name": "r\(k)", "age": k % 90])
        let (data, response) = try await session.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 201,
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any], let id = object["id"] as? Int
        else { throw BenchFailure(message: "bad create response") }
        return id
    }
}

extension String {
    fileprivate func prefixed(by prefix: String) -> String { prefix + self }
}
