import Foundation

/// The changes feed of a served model that keeps history: `GET <collection>/changes`
/// (see `Docs/Sync.md`).
///
/// Each answer lists, in cursor order, the records of the page's entries as they are now:
/// an `upsert` with the record for a row within the request's reach (its path, scope and
/// owner gate, as a list sees them), a `remove` with only the id for a row deleted or
/// moved out of reach. A row that is out of reach and never touched a constrained column
/// is not mentioned. Several entries of one row in a page are one change, at the last
/// entry's cursor.
extension ModelEndpoint {
    func changes(_ call: ResourceCall, feed: FeedSignal, waitLimit: Duration) async throws -> ResourceResponse {
        guard let store = call.store as? any HistoryKeepingAdapter, schema.keepsHistory else {
            throw ResourceError(status: 404, code: "no_route", message: "\(schema.modelName) has no changes feed (it keeps no history)")
        }
        let request = FeedRequest.parse(call.request.query, pageSize: options.limits.pageSize, waitLimit: waitLimit)
        let asked = try request.get()
        guard let since = asked.since else {
            return feedResponse([], next: try await store.historyHead(), more: false)
        }
        let deadline = ContinuousClock.now + asked.wait
        var cursor = since
        while true {
            let generation = feed.generation
            let page: HistoryPage
            do {
                page = try await store.history(after: cursor, limit: asked.limit, tables: [schema.tableName])
            } catch let error as StoreError where error.kind == .historyCompacted {
                throw ResourceError(
                    status: 410, code: "history_compacted",
                    message: "the changes after \(cursor) were compacted away: read the collection again, taking `since=now` first")
            }
            let changes = try await visible(page.entries, call)
            cursor = page.next
            let remaining = deadline - ContinuousClock.now
            if !changes.isEmpty || page.hasMore || remaining <= .zero {
                return feedResponse(changes, next: page.next, more: page.hasMore)
            }
            try await feed.wait(after: generation, known: cursor, timeout: remaining, polling: store)
            try Task.checkCancellation()
        }
    }

    /// The changes `entries` make visible to `call`.
    private func visible(_ entries: [HistoryEntry], _ call: ResourceCall) async throws -> [ModelValue] {
        guard !entries.isEmpty else { return [] }
        var rows: [ModelValue: (cursor: HistoryCursor, mayHaveLeft: Bool)] = [:]
        var order: [ModelValue] = []
        let constrained = Set(call.fixed.keys).union(call.scope.keys).union(call.gate.map { [$0.column] } ?? [])
            .map { schema.columns[$0].name }
        for entry in entries {
            let left = entry.action == .delete || (entry.changedColumns ?? []).contains { constrained.contains($0) }
            if let seen = rows[entry.id] {
                rows[entry.id] = (entry.cursor, seen.mayHaveLeft || left)
            } else {
                rows[entry.id] = (entry.cursor, left)
                order.append(entry.id)
            }
        }
        var parts: [QueryPredicate] = [.isIn(column: 0, order)]
        if let constraint = call.constraint { parts.append(constraint) }
        if let gate = call.gate { parts.append(try await gate.listPredicate(in: call.store)) }
        let records = try await Query<M>().where(QueryCondition(predicate: .and(parts))).using(call.store).all()
        var current: [ModelValue: M] = [:]
        for record in records { current[record._value(at: 0)] = record }
        var changes: [(HistoryCursor, ModelValue)] = []
        for id in order {
            guard let row = rows[id] else { continue }
            let cursor = ModelValue.string(String(row.cursor.rawValue))
            if let record = current[id] {
                changes.append((row.cursor, ["cursor": cursor, "op": "upsert", "id": id, "record": .dictionary(try object(record))]))
            } else if row.mayHaveLeft {
                changes.append((row.cursor, ["cursor": cursor, "op": "remove", "id": id]))
            }
        }
        return changes.sorted { $0.0 < $1.0 }.map(\.1)
    }

    private func feedResponse(_ changes: [ModelValue], next: HistoryCursor, more: Bool) -> ResourceResponse {
        ResourceResponse.json(
            200, ["changes": .array(changes), "next": .string(String(next.rawValue)), "more": .bool(more)],
            headers: [("Cache-Control", "no-store")])
    }
}

/// A feed request's parameters: `since` (a cursor, or `now` for the head), `limit`
/// (at least 1; more than the page size is read as the page size) and `wait` (seconds to hold the request while nothing is new).
struct FeedRequest {
    /// Nil for `now`.
    var since: HistoryCursor?
    var limit: Int
    var wait: Duration

    static func parse(_ items: [URLQueryItem], pageSize: Int, waitLimit: Duration) -> Result<FeedRequest, ResourceError> {
        var request = FeedRequest(since: .start, limit: pageSize, wait: .zero)
        var sawSince = false
        for item in items {
            let value = item.value ?? ""
            switch item.name {
            case "since":
                sawSince = true
                if value == "now" {
                    request.since = nil
                } else if let number = Int64(value), number >= 0 {
                    request.since = HistoryCursor(rawValue: number)
                } else {
                    return .failure(.badRequest("bad_cursor", "since must be a cursor from this feed or \"now\", not \"\(value)\"", field: "since"))
                }
            case "limit":
                guard let limit = Int(value), limit >= 1 else {
                    return .failure(.badRequest("bad_limit", "limit must be a count of at least 1, not \"\(value)\"", field: "limit"))
                }
                request.limit = min(limit, pageSize)  // as a list's page: at most the resource's page size
            case "wait":
                let most = Double(waitLimit.components.seconds) + Double(waitLimit.components.attoseconds) / 1e18
                guard let seconds = Double(value), seconds.isFinite, seconds >= 0, seconds <= most else {
                    return .failure(.badRequest("bad_wait", "wait must be 0 to \(most) seconds, not \"\(value)\"", field: "wait"))
                }
                request.wait = .milliseconds(Int64(seconds * 1000))
            default:
                return .failure(.badRequest("unknown_parameter", "the changes feed takes since, limit and wait, not \"\(item.name)\"", field: item.name))
            }
        }
        guard sawSince else {
            return .failure(.badRequest("missing_cursor", "the changes feed needs since=<cursor> (or since=now)", field: "since"))
        }
        return .success(request)
    }
}
