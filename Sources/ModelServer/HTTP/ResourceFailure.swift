import Foundation

/// Errors from the model layer and stores as the 4xx/5xx they mean to a client.
///
/// Errors of the model layer (validations, casts, queries) carry messages of our own and
/// reach the client as they are. A store's or engine's text (SQL, constraint, index and
/// sequence names) never does: the client gets the stable code, the field and a message
/// naming the model; the whole error goes to the log, subsystem `server`.
enum ResourceFailure {
    /// The resource error for `error`; `codec` names fields by their JSON keys.
    static func error(from error: any Error, codec: RowJSONCodec?) -> ResourceError {
        func key(_ column: String?) -> String? {
            guard let column else { return nil }
            guard let codec, let index = codec.schema.index(ofColumn: column) else { return column }
            return codec.key(forColumn: index) ?? column
        }
        switch error {
        case let error as ResourceError:
            return error
        case let invalid as RecordInvalid:
            var fields: [String: [String]] = [:]
            for failure in invalid.errors { fields[key(failure.column) ?? "base", default: []].append(failure.message) }
            return ResourceError(status: 422, code: "invalid", message: invalid.description, fields: fields)
        case let cast as CastError:
            let field = key(cast.column) ?? cast.column
            return ResourceError(status: 422, code: "wrong_type", message: cast.description, fields: [field: [cast.reason]])
        case let store as StoreError:
            // A store's message is the engine's text (SQL, constraint and sequence names):
            // it goes to the log; the client gets the code and a message of our own.
            let model = codec?.schema.modelName ?? "the record"
            switch store.kind {
            case .uniqueViolation, .duplicateID:
                logged(store, as: .info)
                return conflict(model, key(store.column) ?? (store.kind == .duplicateID ? key("id") : nil))
            case .notFound:
                return ResourceError(status: 404, code: "not_found", message: "no such \(model)")
            case .invalidRequest:
                logged(store, as: .notice)
                return ResourceError(status: 400, code: "bad_request", message: "the store cannot serve this request for \(model)")
            case .closed:
                return ResourceError(status: 503, code: "unavailable", message: "the store is closed")
            default:
                logged(store, as: .error)
                return ResourceError(status: 500, code: "store_error", message: "the store failed")
            }
        case let model as ModelError:
            switch model.kind {
            case .recordNotFound: return ResourceError(status: 404, code: "not_found", message: model.description)
            case .cancelled: return ResourceError(status: 409, code: "declined", message: model.description)
            case .restricted: return ResourceError(status: 409, code: "restricted", message: model.description)
            case .unknownColumn, .notAColumn: return ResourceError(status: 422, code: "unknown_key", message: model.description)
            default:
                logged(model, as: .error)
                return ResourceError(status: 500, code: "model_error", message: "the server failed to answer")
            }
        case let query as QueryError:
            return ResourceError(status: 400, code: "bad_query", message: query.description)
        case let failure as any SwiftModelError:
            let field = key(failure.columnName)
            let model = codec?.schema.modelName ?? failure.modelName ?? "the record"
            if failure.storeErrorKind == .uniqueViolation || failure.storeErrorKind == .duplicateID {
                logged(failure, as: .info)
                return conflict(model, field)
            }
            if failure.isConstraintFailure {
                logged(failure, as: .info)
                let message = field.map { "\(model): \($0) breaks a constraint of the store" } ?? "\(model) breaks a constraint of the store"
                return ResourceError(status: 422, code: "constraint", message: message, fields: field.map { [$0: ["breaks a constraint"]] } ?? [:])
            }
            if failure.isInvalidValue {
                logged(failure, as: .info)
                let message = field.map { "\(model): \($0) holds a value the store cannot keep" } ?? "\(model) holds a value the store cannot keep"
                return ResourceError(
                    status: 422, code: "invalid_value", message: message, fields: field.map { [$0: ["is a value the store cannot keep"]] } ?? [:])
            }
            if failure.isTransient {
                logged(failure, as: .warning)
                var error = ResourceError(status: 503, code: "unavailable", message: "the store is unavailable; retry later")
                error.headers["Retry-After"] = "1"
                return error
            }
            logged(failure, as: .error)
            return ResourceError(status: 500, code: "internal", message: "the server failed to answer")
        case is CancellationError:
            return ResourceError(status: 503, code: "cancelled", message: "the request was cancelled")
        default:
            logged(error, as: .error)
            return ResourceError(status: 500, code: "internal", message: "the server failed to answer")
        }
    }

    /// A `409 conflict` for a unique value (or id) of `model` already taken, by JSON key.
    private static func conflict(_ model: String, _ field: String?) -> ResourceError {
        let what = field.map { "\($0) is already taken" } ?? "a unique value is already taken"
        return ResourceError(status: 409, code: "conflict", message: "\(model): \(what)", fields: field.map { [$0: ["is already taken"]] } ?? [:])
    }

    /// The server's log (subsystem `server`): where an engine's own text goes.
    static let log = ModelLogger(subsystem: "server")

    private static func logged(_ error: any Error, as level: LogLevel) {
        log.log(level, "request failed: \(String(describing: error))")
    }
}
