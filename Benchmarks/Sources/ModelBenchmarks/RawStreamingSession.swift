import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The second raw baseline of `--rest`: URLSession with a data delegate that collects each
/// body as it streams in and refuses one past a byte limit — the least a client must do to
/// bound its memory against a hostile server (`RESTConfiguration.maxResponseBytes`), which
/// a completion handler cannot (it buffers the whole body first).
final class RawStreamingSession: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked Sendable: `transfers` is only touched while holding `lock`.
    private let lock = NSLock()
    private var transfers: [Int: (body: Data, status: Int, done: CheckedContinuation<(Data, Int), any Error>?)] = [:]
    private let limit = 32 << 20
    private(set) var session: URLSession!

    override init() {
        super.init()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: .ephemeral, delegate: self, delegateQueue: queue)
    }

    /// The body and status of `request`.
    func data(for request: URLRequest) async throws -> (Data, Int) {
        try await withCheckedThrowingContinuation { continuation in
            let task = session.dataTask(with: request)
            lock.withLock { transfers[task.taskIdentifier] = (Data(), 0, continuation) }
            task.resume()
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        lock.withLock { transfers[dataTask.taskIdentifier]?.status = status }
        completionHandler(response.expectedContentLength > Int64(limit) ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let over = lock.withLock {
            transfers[dataTask.taskIdentifier]?.body.append(data)
            return (transfers[dataTask.taskIdentifier]?.body.count ?? 0) > limit
        }
        if over { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let transfer = lock.withLock({ transfers.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let error {
            transfer.done?.resume(throwing: error)
        } else {
            transfer.done?.resume(returning: (transfer.body, transfer.status))
        }
    }
}
