import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What one transfer ended with.
enum TransferResult: Sendable {
    /// A response and its whole body (redirects are never followed by the session: a 3xx
    /// arrives here as it is, for ``HTTPTransport`` to judge).
    case response(HTTPURLResponse, Data)
    /// The body grew past the limit; the transfer was cancelled at that point.
    case tooLarge(bytes: Int, limit: Int)
    /// The transfer failed (`URLError`, or another error from the session).
    case failure(any Error)
}

/// One request in flight: the bytes received so far, the limit they must stay under, and
/// what to call when it ends.
///
/// `@unchecked Sendable`: `data`, `response` and `finished` are read and written only while
/// holding `lock`.
final class Transfer: @unchecked Sendable {
    let limit: Int
    private let lock = NSLock()
    private var data = Data()
    private var response: HTTPURLResponse?
    private var overflow: Int?
    private var finished = false
    private let onFinish: @Sendable (TransferResult) -> Void

    init(limit: Int, onFinish: @escaping @Sendable (TransferResult) -> Void) {
        self.limit = limit
        self.onFinish = onFinish
    }

    /// Takes the response head; false when its declared length is already over the limit.
    func receive(_ response: URLResponse) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        self.response = response as? HTTPURLResponse
        let declared = response.expectedContentLength
        if declared > Int64(limit) {
            overflow = Int(clamping: declared)
            return false
        }
        if declared > 0 { data.reserveCapacity(Int(declared)) }
        return true
    }

    /// Appends body bytes; false once they pass the limit (the caller cancels the task).
    func receive(_ bytes: Data) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard overflow == nil else { return false }
        if data.count + bytes.count > limit {
            overflow = data.count + bytes.count
            data = Data()
            return false
        }
        data.append(bytes)
        return true
    }

    /// Ends the transfer once (later calls do nothing).
    func finish(_ error: (any Error)?) {
        lock.lock()
        if finished {
            lock.unlock()
            return
        }
        finished = true
        let result: TransferResult
        if let overflow {
            result = .tooLarge(bytes: overflow, limit: limit)
        } else if let error {
            result = .failure(error)
        } else if let response {
            result = .response(response, data)
        } else {
            result = .failure(URLError(.badServerResponse))
        }
        data = Data()
        lock.unlock()
        onFinish(result)
    }
}

/// The delegate of the adapter's session: streams each body into its ``Transfer`` (so an
/// oversized body is refused as it crosses the limit, not after it is buffered) and
/// refuses every redirect, which ``HTTPTransport`` then follows itself only within the
/// base URL's origin.
final class HTTPSessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let transfers = Locked<[Int: Transfer]>([:])

    /// Starts `request` on `session`, reporting to `transfer`; returns the task (to cancel).
    func start(_ request: URLRequest, on session: URLSession, _ transfer: Transfer) -> URLSessionDataTask {
        let task = session.dataTask(with: request)
        transfers.withLock { $0[task.taskIdentifier] = transfer }
        task.resume()
        return task
    }

    private func transfer(_ task: URLSessionTask) -> Transfer? { transfers.withLock { $0[task.taskIdentifier] } }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        guard let transfer = transfer(dataTask), transfer.receive(response) else {
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        if transfer(dataTask)?.receive(data) == false { dataTask.cancel() }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        // Never let the session follow: it would copy the Authorization header to any host.
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let transfer = transfers.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        transfer?.finish(error)
    }
}
