import Foundation

/// A request the resource core refuses, as the 4xx (or 5xx) response it becomes:
///
/// ```json
/// {"error": {"status": 422, "code": "invalid", "message": "new Todo is invalid: title can't be blank",
///            "fields": {"title": ["can't be blank"]}}}
/// ```
///
/// `code` is stable and meant for programs (`not_found`, `bad_query`, `malformed_json`,
/// `unknown_key`, `wrong_type`, `read_only`, `invalid`, `conflict`, `precondition_failed`,
/// `body_too_large`, `forbidden`, …); `message` names the model, field, value or parameter
/// at fault; `fields` carries per-field messages for 422s.
public struct ResourceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Header fields the response carries besides the JSON body (`Allow` on a 405, `ETag` on a 412).
    public var headers: [String: String] = [:]
    /// The HTTP status.
    public var status: Int
    /// A stable machine-readable code.
    public var code: String
    /// What is wrong, for people.
    public var message: String
    /// Messages by JSON key (validation failures, wrong types).
    public var fields: [String: [String]]

    /// Creates an error.
    public init(status: Int, code: String, message: String, fields: [String: [String]] = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.fields = fields
    }

    public var description: String { "\(status) \(code): \(message)" }

    /// The response that carries it.
    public var response: ResourceResponse {
        var error: [String: ModelValue] = ["status": .int(Int64(status)), "code": .string(code), "message": .string(message)]
        if !fields.isEmpty {
            error["fields"] = .dictionary(fields.mapValues { .array($0.map(ModelValue.string)) })
        }
        return .json(status, ["error": .dictionary(error)], headers: headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    static func notFound(_ model: String, _ id: String) -> ResourceError {
        ResourceError(status: 404, code: "not_found", message: "no \(model) with id \(id)")
    }

    static func badRequest(_ code: String, _ message: String, field: String? = nil) -> ResourceError {
        ResourceError(status: 400, code: code, message: message, fields: field.map { [$0: [message]] } ?? [:])
    }

    static func unprocessable(_ code: String, _ message: String, field: String? = nil) -> ResourceError {
        ResourceError(status: 422, code: code, message: message, fields: field.map { [$0: [message]] } ?? [:])
    }
}
