import Foundation

/// Errors from the model layer and stores as the 4xx/5xx they mean to a client.
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
            switch store.kind {
            case .uniqueViolation, .duplicateID:
                let field = key(store.column) ?? (store.kind == .duplicateID ? key("id") : nil)
                return ResourceError(
                    status: 409, code: "conflict", message: store.description, fields: field.map { [$0: ["is already taken"]] } ?? [:])
            case .notFound:
                return ResourceError(status: 404, code: "not_found", message: store.description)
            case .invalidRequest:
                return ResourceError(status: 400, code: "bad_request", message: store.description)
            case .closed:
                return ResourceError(status: 503, code: "unavailable", message: "the store is closed")
            default:
                return ResourceError(status: 500, code: "store_error", message: "the store failed")
            }
        case let model as ModelError:
            switch model.kind {
            case .recordNotFound: return ResourceError(status: 404, code: "not_found", message: model.description)
            case .cancelled: return ResourceError(status: 409, code: "declined", message: model.description)
            case .restricted: return ResourceError(status: 409, code: "restricted", message: model.description)
            case .unknownColumn, .notAColumn: return ResourceError(status: 422, code: "unknown_key", message: model.description)
            default: return ResourceError(status: 500, code: "model_error", message: model.description)
            }
        case let query as QueryError:
            return ResourceError(status: 400, code: "bad_query", message: query.description)
        case let failure as any SwiftModelError:
            let field = key(failure.columnName)
            let fields = field.map { [$0: [failure.description]] } ?? [:]
            if failure.storeErrorKind == .uniqueViolation || failure.storeErrorKind == .duplicateID {
                return ResourceError(status: 409, code: "conflict", message: failure.description, fields: fields)
            }
            if failure.isConstraintFailure {
                return ResourceError(status: 422, code: "constraint", message: failure.description, fields: fields)
            }
            if failure.isInvalidValue {
                return ResourceError(status: 422, code: "invalid_value", message: failure.description, fields: fields)
            }
            if failure.isTransient {
                var error = ResourceError(status: 503, code: "unavailable", message: "the store is unavailable; retry later")
                error.headers["Retry-After"] = "1"
                return error
            }
            return ResourceError(status: 500, code: "internal", message: "the server failed to answer")
        case is CancellationError:
            return ResourceError(status: 503, code: "cancelled", message: "the request was cancelled")
        default:
            return ResourceError(status: 500, code: "internal", message: "the server failed to answer")
        }
    }
}
