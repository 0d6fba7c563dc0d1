import Dispatch
import Foundation
import RESTAdapter
import RESTTestServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `--rest N`: N finds and N creates through RESTAdapter, sequential and spread over 8 and
/// 64 concurrent tasks, in alternating rounds against raw `URLSession` requests parsed with
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
        // One configuration for both sides (connections per host, caching).
        let session = URLSession(configuration: .ephemeral)
        let adapter = RESTAdapter(baseURL: server.baseURL, session: session)
        let base = server.baseURL.absoluteString
        let ids = (0..<n).map { Int64($0 % n + 1) }

        // Warm up connections on both sides.
        _ = try await rawFind({ let (d, r) = try await session.data(for: $0); return (d, (r as? HTTPURLResponse)?.statusCode ?? 0) }, base, 1)
        _ = try await RestItem.find(1, in: adapter)

        let streaming = RawStreamingSession()
        _ = try await rawFind(streaming.data, base, 1)
        let completion: @Sendable (URLRequest) async throws -> (Data, Int) = { request in
            let (data, response) = try await session.data(for: request)
            return (data, (response as? HTTPURLResponse)?.statusCode ?? 0)
        }
        let stream: @Sendable (URLRequest) async throws -> (Data, Int) = { try await streaming.data(for: $0) }
        print(
            "REST against the in-process server, n = \(n) per side, median of \(rounds) rounds in rotating order; "
                + "µs per request and SwiftModel's ratio to raw URLSession + JSONSerialization with a completion handler "
                + "and with a streaming delegate that bounds the body (RawStreamingSession)")
        for tasks in [1, 8, 64] {
            let label = tasks == 1 ? "sequential" : "\(tasks) concurrent tasks"
            try await compare(
                "find, " + label, n,
                [
                    { range in try await spread(range, tasks) { k in blackHole(try await rawFind(completion, base, ids[k])) } },
                    { range in try await spread(range, tasks) { k in blackHole(try await rawFind(stream, base, ids[k])) } },
                    { range in
                        try await spread(range, tasks) { k in blackHole(try await RestItem.find(ids[k], in: adapter)?.age ?? 0) }
                    },
                ])
            try await compare(
                "create, " + label, n,
                [
                    { range in try await spread(range, tasks) { k in blackHole(try await rawCreate(completion, base, k)) } },
                    { range in try await spread(range, tasks) { k in blackHole(try await rawCreate(stream, base, k)) } },
                    { range in
                        try await spread(range, tasks) { k in
                            blackHole(try await RestItem.create(["name": .string("c\(k)"), "age": .int(Int64(k % 90))], in: adapter).id ?? 0)
                        }
                    },
                ])
        }
    }

    private static let rounds = 7

    /// Times each side over `n` items in ``rounds`` slices, rotating which goes first, and
    /// reports the medians per request: raw with a completion handler, raw streaming,
    /// SwiftModel.
    private static func compare(_ name: String, _ n: Int, _ sides: [(Range<Int>) async throws -> Void]) async throws {
        var times = Array(repeating: [Duration](), count: sides.count)
        let slice = max(1, n / rounds)
        for round in 0..<rounds {
            let range = min(n, round * slice)..<min(n, (round + 1) * slice)
            for k in 0..<sides.count {
                let side = (k + round) % sides.count
                times[side].append(try await time { try await sides[side](range) })
            }
        }
        func us(_ d: Duration) -> Double { (Double(d.components.seconds) * 1e18 + Double(d.components.attoseconds)) / 1e12 / Double(slice) }
        let medians = times.map { us($0.sorted()[rounds / 2]) }
        print(
            "  " + name.padding(toLength: 28, withPad: " ", startingAt: 0)
                + String(
                    format: "completion %7.1f  streaming %7.1f  SwiftModel %7.1f   ratio %.2f× / %.2f×", medians[0], medians[1], medians[2],
                    medians[2] / medians[0], medians[2] / medians[1]))
    }

    /// Runs `body` for each of `range`, spread over `tasks` concurrent tasks.
    private static func spread(_ range: Range<Int>, _ tasks: Int, _ body: @escaping @Sendable (Int) async throws -> Void) async throws {
        if tasks == 1 {
            for k in range { try await body(k) }
            return
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for t in 0..<tasks {
                group.addTask { for k in stride(from: range.lowerBound + t, to: range.upperBound, by: tasks) { try await body(k) } }
            }
            try await group.waitForAll()
        }
    }

    private static func time(_ body: () async throws -> Void) async throws -> Duration {
        let start = ContinuousClock.now
        try await body()
        return ContinuousClock.now - start
    }

    struct BenchFailure: Error { let message: String }

    /// GET /rest_items/:id, parsed to a dictionary; returns the age.
    private static func rawFind(_ fetch: (URLRequest) async throws -> (Data, Int), _ base: String, _ id: Int64) async throws -> Int {
        guard let url = URL(string: "\(base)/rest_items/\(id)") else { throw BenchFailure(message: "url") }
        var request = URLRequest(url: url)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let (data, status) = try await fetch(request)
        guard status == 200,
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any], let age = object["age"] as? Int
        else { throw BenchFailure(message: "bad find response") }
        return age
    }

    /// POST /rest_items with a JSONSerialization body; returns the new id.
    private static func rawCreate(_ fetch: (URLRequest) async throws -> (Data, Int), _ base: String, _ k: Int) async throws -> Int {
        guard let url = URL(string: "\(base)/rest_items") else { throw BenchFailure(message: "url") }
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.httpBody = try JSONSerialization.data(withJSONObject: ["name": "r\(k)", "age": k % 90])
        let (data, status) = try await fetch(request)
        guard status == 201,
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any], let id = object["id"] as? Int
        else { throw BenchFailure(message: "bad create response") }
        return id
    }
}
