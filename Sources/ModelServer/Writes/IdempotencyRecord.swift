import Foundation

/// A `POST`'s response remembered under its `Idempotency-Key`, stored in the served store
/// itself, in the transaction of the create it answers: the record exists exactly when
/// the create committed, so a retry after a lost response, a crash or a restart replays it
/// instead of creating twice.
final class IdempotencyRecord: Model {
    static var tableName: String { "swiftmodel_idempotency_keys" }
    static var isObservable: Bool { false }
    static var joinsContexts: Bool { false }

    /// Method, path, a hash of the credentials and the client's key.
    @Column(options: .unique) var scopedKey: String = ""
    /// FNV-1a 64 of the request body (as a bit pattern).
    @Column var fingerprint: Int64 = 0
    @Column var status: Int = 0
    /// The response's header fields as a JSON array of `[name, value]` pairs.
    @Column(options: .text) var headers: String = "[]"
    @Column var body: Data = Data()
    @Column var createdAt: Date?
    init() {}

    /// The remembered response.
    var response: ResourceResponse {
        var fields: [(name: String, value: String)] = []
        if case .array(let pairs) = (try? ModelJSON.parse(headers)) ?? .null {
            for pair in pairs {
                if case .array(let nv) = pair, nv.count == 2, case .string(let n) = nv[0], case .string(let v) = nv[1] {
                    fields.append((n, v))
                }
            }
        }
        return ResourceResponse(status: status, headers: fields, body: body)
    }

    /// Remembers `response`.
    func remember(_ response: ResourceResponse) {
        status = response.status
        headers = ModelJSON.serialize(.array(response.headers.map { .array([.string($0.name), .string($0.value)]) }))
        body = response.body
    }
}
