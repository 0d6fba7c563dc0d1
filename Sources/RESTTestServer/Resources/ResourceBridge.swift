import Foundation
import ModelServer

/// Hands a request from a connection thread to the resource core and waits for its
/// answer. The request's task prefers a `ThreadTaskExecutor` the connection thread drains
/// while it waits, so serving never needs a thread of the cooperative pool (which
/// the tests of a client may hold with blocking calls).
enum ResourceBridge {
    static func respond(_ resources: ModelResources, to request: HTTPRequest) -> HTTPResponse {
        let resourceRequest = ResourceRequest(
            method: request.method, target: request.target.isEmpty ? request.path : request.target,
            headers: request.headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, body: request.body)
        let answer = Locked<ResourceResponse?>(nil)
        let executor = ThreadTaskExecutor(name: "RESTTestServer.bridge")
        Task(executorPreference: executor) {
            let response = await resources.respond(to: resourceRequest)
            answer.withLock { $0 = response }
            executor.finish()
        }
        executor.run()
        let response = answer.withLock { $0 } ?? ResourceResponse(status: 500)
        return HTTPResponse(status: response.status, headers: response.headers, body: response.body)
    }
}
