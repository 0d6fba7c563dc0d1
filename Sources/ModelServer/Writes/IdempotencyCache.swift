import Foundation

/// `Idempotency-Key` on `POST`: a client that retries after a lost response gets the first
/// response again instead of a second record.
///
/// A create's response is stored with its key in the served store, in the create's own
/// transaction (``IdempotencyRecord``), so the answer survives crashes and restarts and is
/// shared by every server process on the store. Keys are scoped by method, resource (the
/// model and the owner keys of its path, however the path is spelled) and credentials (a
/// hash of `Authorization`), and remembered for ``lifetime``. A key reused with another body is a 422 `idempotency_key_reused`; a key whose first request is still
/// running in this process is a 409 `idempotency_key_in_use` (in another process, the
/// second create fails on the key's unique index and answers the same 409). A refused
/// request (4xx) is not remembered: nothing was written, and the retry is refused again.
///
/// `@unchecked Sendable`: `running` is read and written only while holding `lock`.
final class IdempotencyCache: @unchecked Sendable {
    private let lock = NSLock()
    private var running: Set<String> = []
    private var sinceSweep = 0
    let lifetime: Duration

    init(lifetime: Duration) {
        self.lifetime = lifetime
    }

    /// A claim on a request's key for the duration of its create.
    struct Claim: Sendable {
        let key: String
        let given: String
        let fingerprint: Int64
    }

    /// Claims `request`'s key for the collection `resource` names (the model and the
    /// owner keys its path fixes, not the path's spelling): nil without a key.
    func claim(_ request: ResourceRequest, resource: String) throws(ResourceError) -> Claim? {
        guard let given = request.header("Idempotency-Key") else { return nil }
        guard !given.isEmpty, given.utf8.count <= 255 else {
            throw ResourceError.badRequest("bad_idempotency_key", "an Idempotency-Key has 1 to 255 characters")
        }
        let credentials = String(UInt64(bitPattern: Self.fingerprint(Data((request.header("Authorization") ?? "").utf8))), radix: 16)
        let claim = Claim(
            key: "\(request.method) \(resource) \(credentials) \(given)", given: given, fingerprint: Self.fingerprint(request.body))
        let inserted = lock.withLock { running.insert(claim.key).inserted }
        guard inserted else { throw Self.inUse(given) }
        return claim
    }

    /// Releases a claim once its request has an answer.
    func release(_ claim: Claim) {
        _ = lock.withLock { running.remove(claim.key) }
    }

    /// The remembered response for `claim`, looked up in the create's transaction: nil when
    /// none (or an expired one, deleted now); a 422 for another body.
    func replay(_ claim: Claim, in store: any PersistenceAdapter) async throws -> ResourceResponse? {
        guard let record = try await IdempotencyRecord.where("scoped_key").eq(claim.key).using(store).first() else { return nil }
        if let created = record.createdAt, Date().timeIntervalSince(created) > lifetime.secondsValue {
            _ = try await record.delete()
            return nil
        }
        guard record.fingerprint == claim.fingerprint else {
            throw ResourceError(
                status: 422, code: "idempotency_key_reused", message: "Idempotency-Key \(claim.given) was used with another request body")
        }
        var response = record.response
        response.headers.append(("Idempotent-Replayed", "true"))
        return response
    }

    /// Stores `response` under `claim`, in the create's transaction; now and then deletes
    /// expired keys too.
    func remember(_ response: ResourceResponse, for claim: Claim, in store: any PersistenceAdapter) async throws {
        let record = IdempotencyRecord()
        record.scopedKey = claim.key
        record.fingerprint = claim.fingerprint
        record.remember(response)
        try await record.save(to: store)
        let sweep = lock.withLock { () -> Bool in
            sinceSweep += 1
            guard sinceSweep >= 1_000 else { return false }
            sinceSweep = 0
            return true
        }
        if sweep {
            let cutoff = Date().addingTimeInterval(-lifetime.secondsValue)
            _ = try await IdempotencyRecord.where("created_at").lt(.date(cutoff)).using(store).deleteAll()
        }
    }

    static func inUse(_ given: String) -> ResourceError {
        ResourceError(status: 409, code: "idempotency_key_in_use", message: "a request with Idempotency-Key \(given) is still running")
    }

    private static func fingerprint(_ body: Data) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in body { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int64(bitPattern: hash)
    }
}

extension Duration {
    /// The duration in seconds.
    var secondsValue: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) / 1e18
    }
}
