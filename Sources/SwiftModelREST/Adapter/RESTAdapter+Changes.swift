import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One answer of a changes feed (`GET <collection>/changes`, see `Docs/Sync.md`).
package struct FeedPage: Sendable {
    /// A record as it is now on the server, or the id of one the client should drop.
    package enum Change: Sendable {
        case upsert([ModelValue])
        case remove(ModelValue)
    }

    package var changes: [Change]
    /// The cursor to ask after next (opaque text).
    package var next: String
    /// Whether more changes wait after ``next``.
    package var more: Bool
}

/// What reading a changes feed found.
package enum FeedRead: Sendable {
    case page(FeedPage)
    /// The server no longer holds the changes after the cursor (410 `history_compacted`):
    /// read everything again.
    case compacted
}

extension RESTAdapter {
    /// Reads `schema`'s changes feed after `since` (nil for the head: `since=now`),
    /// holding the request up to `wait` while nothing is new (bounded by the request
    /// timeout, less 5 seconds).
    package func changes(_ schema: ModelSchema, since: String?, limit: Int, wait: Duration = .zero) throws -> FeedRead {
        let (request, resource) = try feedRequest(schema, since: since, limit: limit, wait: wait)
        return try feedRead(try send(request, resource), resource)
    }

    /// ``changes(_:since:limit:wait:)``, suspending instead of blocking.
    package func changes(_ schema: ModelSchema, since: String?, limit: Int, wait: Duration = .zero) async throws -> FeedRead {
        let (request, resource) = try feedRequest(schema, since: since, limit: limit, wait: wait)
        return try feedRead(try await send(request, resource), resource)
    }

    private func feedRequest(_ schema: ModelSchema, since: String?, limit: Int, wait: Duration) throws -> (URLRequest, ResolvedResource) {
        let resource = try resource(for: schema)
        let model = schema.modelName
        guard resource.settings.changesFeed else {
            throw RESTError(.unsupported, model: model, message: "\(model)'s resource declares no changes feed (RESTResource.changesFeed)")
        }
        guard let path = resource.routes.collection.path({ _ in nil }), resource.routes.flatAllowed else {
            throw RESTError(.route, model: model, message: "a changes feed is read at a flat collection path, which \(model) does not have")
        }
        let longest = max(.zero, configuration.requestTimeout - .seconds(5))
        let held = min(max(wait, .zero), longest)
        var items = [URLQueryItem(name: "since", value: since ?? "now"), URLQueryItem(name: "limit", value: String(limit))]
        if held > .zero {
            let milliseconds = held.components.seconds * 1000 + held.components.attoseconds / 1_000_000_000_000_000
            items.append(URLQueryItem(name: "wait", value: String(format: "%.3f", Double(milliseconds) / 1000)))
        }
        var trimmed = path
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        return (request("GET", try url(trimmed + "/changes", items, model: model), resource), resource)
    }

    private func feedRead(_ response: RESTResponse, _ resource: ResolvedResource) throws -> FeedRead {
        let model = resource.schema.modelName
        if response.status == 410 { return .compacted }
        guard (200..<300).contains(response.status) else { throw statusError(response, model: model) }
        guard let text = String(data: response.body, encoding: .utf8), (response.header("Content-Type") ?? "").contains("json"),
            case .dictionary(let body) = try? ModelJSON.parse(text)
        else { throw invalid(response, model: model, "a changes feed answers a JSON object", text: Self.text(response.body)) }
        guard case .array(let items) = body["changes"] ?? .null, case .string(let next) = body["next"] ?? .null,
            !next.isEmpty, next.utf8.count <= 200, case .bool(let more) = body["more"] ?? .null
        else {
            throw invalid(response, model: model, "a changes feed answer has `changes` (a list), `next` (a cursor) and `more`", body: .dictionary(body))
        }
        var changes: [FeedPage.Change] = []
        changes.reserveCapacity(items.count)
        for item in items {
            guard case .dictionary(let change) = item, case .string(let op) = change["op"] ?? .null, let id = change["id"], !id.isNull
            else { throw invalid(response, model: model, "a change without `op` and `id`", body: item) }
            switch op {
            case "upsert":
                let row = try row(change["record"] ?? .null, response, resource)
                guard let wanted = try? resource.codec.value(fromJSON: id, forColumn: 0), row[0] == wanted
                else { throw invalid(response, model: model, "an upsert's record has another id than the change's \(id)", body: item) }
                changes.append(.upsert(row))
            case "remove":
                guard let typed = try? resource.codec.value(fromJSON: id, forColumn: 0), !typed.isNull else {
                    throw invalid(response, model: model, "a removal's id \(id) is not a \(model) id", body: item)
                }
                changes.append(.remove(typed))
            default:
                throw invalid(response, model: model, "a change's op is \"\(op)\", not upsert or remove", body: item)
            }
        }
        return .page(FeedPage(changes: changes, next: next, more: more))
    }
}
