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
    /// A compressed body (`Content-Encoding`, which the adapter did not ask for) whose
    /// declared length could inflate past the limit; refused at its head, before the URL
    /// loading system inflated any of it.
    case compressedTooLarge(encoding: String, declared: Int64?, limit: Int)
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
    private var compressed: (encoding: String, declared: Int64?)?
    private var finished = false
    private let onFinish: @Sendable (TransferResult) -> Void

    init(limit: Int, onFinish: @escaping @Sendable (TransferResult) -> Void) {
        self.limit = limit
        self.onFinish = onFinish
    }

    /// The most a deflate stream inflates: 1,032 bytes out for each byte in (zlib's bound).
    static let inflationBound: Int64 = 1_032

    /// Takes the response head; false when its declared length is already over the limit,
    /// or when it is compressed and could inflate past it.
    ///
    /// The adapter asks for `Accept-Encoding: identity`. A body compressed anyway is inflated
    /// by the URL loading system (libcurl on Linux) faster than any delegate sees it, so it
    /// is accepted only when its declared length, inflated at the worst ratio, fits the
    /// limit. On Linux the refusal does not stop libcurl from inflating what has arrived
    /// until the cancellation takes effect (Docs/REST.md, "Bounds").
    func receive(_ response: URLResponse) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        self.response = response as? HTTPURLResponse
        let declared = response.expectedContentLength
        if declared > Int64(limit) {
            overflow = Int(clamping: declared)
            return false
        }
        if let encoding = self.response?.value(forHTTPHeaderField: "Content-Encoding")?.trimmingCharacters(in: .whitespaces).lowercased(),
            !encoding.isEmpty, encoding != "identity",
            declared <= 0 || declared.multipliedReportingOverflow(by: Self.inflationBound).partialValue > Int64(limit)
                || declared.multipliedReportingOverflow(by: Self.inflationBound).overflow
        {
            compressed = (encoding, declared > 0 ? declared : nil)
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
        if let compressed {
            result = .compressedTooLarge(encoding: compressed.encoding, declared: compressed.declared, limit: limit)
        } else if let overflow {
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
        if transfer(dataTask)?.receive(data) == false { HTTPTransport.cancel(dataTask) }
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
