import Foundation
import Hummingbird
import HummingbirdModelServer
import Synchronization

/// One Hummingbird server for the test process; each store under test is a tenant — its
/// own `ModelResources` under `/<tenant>` — chosen per request by ModelResourcesMiddleware.
final class TenantServer: Sendable {
    static let shared = TenantServer()

    private let tenants = Mutex<[String: ModelResources]>([:])
    private let counter = Atomic<Int>(0)
    private let started = Mutex<Task<URL, any Error>?>(nil)

    /// The server's base URL, starting it on first use.
    func baseURL() async throws -> URL {
        let task = started.withLock { task in
            if let task { return task }
            let new = Task { try await self.start() }
            task = new
            return new
        }
        return try await task.value
    }

    /// A new tenant serving the schemas given from `store`; its base URL.
    func tenant(_ base: URL, store: any PersistenceAdapter, _ register: (inout ModelResources) throws -> Void) throws -> URL {
        let name = "t\(counter.add(1, ordering: .relaxed).newValue)"
        var configuration = ModelResources.Configuration()
        configuration.pathPrefix = "/" + name
        var resources = ModelResources(store: store, configuration: configuration)
        try register(&resources)
        tenants.withLock { $0[name] = resources }
        return base.appendingPathComponent(name)
    }

    private func start() async throws -> URL {
        let router = Router()
        router.add(
            middleware: ModelResourcesMiddleware { request in
                let path = request.head.path ?? "/"
                let name = path.split(separator: "/").first.map(String.init) ?? ""
                return self.tenants.withLock { $0[name] }
            })
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "SwiftModelTests"),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            })
        Task.detached { try await app.run() }
        var iterator = stream.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else { throw CocoaError(.featureUnsupported) }
        return URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
    }
}
