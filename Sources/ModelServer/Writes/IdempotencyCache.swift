import Foundation

/// Remembers the responses of `POST`s sent with an `Idempotency-Key`, so a client that
/// retries after a lost response gets the first response again instead of a second
/// record. Keys are scoped by path and credentials (`Authorization`), bounded in number
/// (oldest forgotten first) and in time. A key reused with another body is a 422
/// `idempotency_key_reused`; a key whose first request is still running is a 409
/// `idempotency_key_in_use`. Server errors (5xx) are not remembered: the retry runs again.
///
/// In memory, per process: servers behind a load balancer need a shared store for keys
/// (a follow-up). `@unchecked Sendable`: `entries` and `order` are read and written only
/// while holding `lock`.
final class IdempotencyCache: @unchecked Sendable {
    private enum Entry {
        case running(fingerprint: UInt64)
        case done(fingerprint: UInt64, response: ResourceResponse, at: ContinuousClock.Instant)
    }

    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    private var order: [String] = []
    private var orderStart = 0
    private let capacity: Int
    private let lifetime: Duration

    init(capacity: Int, lifetime: Duration) {
        self.capacity = max(1, capacity)
        self.lifetime = lifetime
    }

    /// A claim on a request's key, settled with the response.
    struct Reservation {
        let cache: IdempotencyCache
        let key: String
        let fingerprint: UInt64

        func finish(_ response: ResourceResponse) { cache.finish(key, fingerprint, response) }
    }

    /// Claims `request`'s key: nil without one; throws the replayed response (as a
    /// ``ResourceReplay``) or the conflict when the key is known.
    func begin(_ request: ResourceRequest) throws -> Reservation? {
        guard let given = request.header("Idempotency-Key") else { return nil }
        guard !given.isEmpty, given.utf8.count <= 255 else {
            throw ResourceError.badRequest("bad_idempotency_key", "an Idempotency-Key has 1 to 255 characters")
        }
        let key = [request.method, request.path, request.header("Authorization") ?? "", given].joined(separator: "\u{0}")
        let fingerprint = Self.fingerprint(request.body)
        let now = ContinuousClock.now
        return try lock.withLock { () throws -> Reservation in
            switch entries[key] {
            case .running(let seen):
                guard seen == fingerprint else { throw Self.reused(given) }
                throw ResourceError(
                    status: 409, code: "idempotency_key_in_use", message: "a request with Idempotency-Key \(given) is still running")
            case .done(let seen, let response, let at) where now - at < lifetime:
                guard seen == fingerprint else { throw Self.reused(given) }
                var replay = response
                replay.headers.append(("Idempotent-Replayed", "true"))
                throw ResourceReplay(response: replay)
            default:
                entries[key] = .running(fingerprint: fingerprint)
                order.append(key)
                evict()
                return Reservation(cache: self, key: key, fingerprint: fingerprint)
            }
        }
    }

    private func finish(_ key: String, _ fingerprint: UInt64, _ response: ResourceResponse) {
        lock.withLock {
            if response.status >= 500 {
                entries[key] = nil
            } else {
                entries[key] = .done(fingerprint: fingerprint, response: response, at: .now)
            }
        }
    }

    /// Forgets the oldest keys beyond the capacity (their order list compacted now and then).
    private func evict() {
        while order.count - orderStart > capacity {
            let oldest = order[orderStart]
            orderStart += 1
            if case .done = entries[oldest] { entries[oldest] = nil }
        }
        if orderStart > capacity {
            order.removeFirst(orderStart)
            orderStart = 0
        }
    }

    private static func reused(_ key: String) -> ResourceError {
        ResourceError(
            status: 422, code: "idempotency_key_reused", message: "Idempotency-Key \(key) was used with another request body")
    }

    private static func fingerprint(_ body: Data) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in body { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }
}

/// A remembered response answering a repeated `Idempotency-Key`.
struct ResourceReplay: Error {
    let response: ResourceResponse
}
