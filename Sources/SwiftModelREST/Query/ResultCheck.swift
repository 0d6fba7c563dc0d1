import Foundation
import ModelEngine

/// What the server must honour of a list query: refused before sending when the resource
/// says the server cannot, checked on the rows when they come back.
extension RESTAdapter {
    /// Refuses a query part the resource declares unsupported (``RESTResource/querySupport``).
    func checkSupport(predicate: QueryPredicate?, _ query: StoreQuery, _ resource: ResolvedResource) throws {
        let support = resource.settings.querySupport
        let model = resource.schema.modelName
        func refuse(_ part: String) -> RESTError {
            RESTError(
                .unsupportedQuery, model: model,
                message: "\(part): the resource declares that the server does not support it (RESTResource.querySupport); "
                    + "nothing was sent")
        }
        if predicate != nil, !support.contains(.filter) { throw refuse("a condition") }
        if !query.sort.isEmpty, !support.contains(.sort) { throw refuse("a sort order") }
        if query.limit != nil || query.offset > 0, !support.contains(.paging) { throw refuse("a limit or offset") }
    }

    /// Checks that the rows honour the query: each matches `predicate` (the part sent to the
    /// server), they come in the asked order, and there are no more than the limit. A server
    /// that ignored a parameter returns every row, unsorted; that is an error, never a result.
    ///
    /// Text is compared the way servers collate it as well as exactly: rows in
    /// case-insensitive order pass a sort on a text column. Nulls may come first or last
    /// (one placement for the whole list), as the server's database puts them.
    func verify(_ rows: [[ModelValue]], predicate: QueryPredicate?, _ query: StoreQuery, _ resource: ResolvedResource) throws {
        let schema = resource.schema
        func ignored(_ part: String, _ detail: String) -> RESTError {
            RESTError(
                .queryIgnored, method: "GET", model: schema.modelName,
                message: "the server ignored \(part): \(detail). Declare what it honours with RESTResource.querySupport, "
                    + "or turn the check off with RESTResource.verifiesResults")
        }
        if let predicate {
            for row in rows where QueryEngine.evaluate(predicate, row) != true {
                throw ignored("the filter", "it returned \(schema.modelName) \(row[0]), which does not match")
            }
        }
        if !query.sort.isEmpty {
            // Nulls sort as the smallest value (SQLite, MySQL) or the largest (PostgreSQL,
            // Oracle): either is the server's own correct answer.
            let nullsLargest = rows.indices.dropFirst().contains { !inOrder(rows[$0 - 1], rows[$0], query.sort, nullsLargest: false) }
            for k in rows.indices.dropFirst() where !inOrder(rows[k - 1], rows[k], query.sort, nullsLargest: nullsLargest) {
                let names = query.sort.map { ($0.ascending ? "" : "-") + schema.columns[$0.column].name }.joined(separator: ",")
                throw ignored("the sort order", "\(schema.modelName) \(rows[k][0]) comes after \(rows[k - 1][0]) against sort \(names)")
            }
        }
        if let limit = query.limit, rows.count > limit, query.offset > 0 {
            throw ignored("the limit", "it returned more than \(limit) rows, so the offset \(query.offset) cannot be trusted either")
        }
    }

    /// Whether `a` may come before `b` under `keys`, nulls sorting as the smallest value or,
    /// with `nullsLargest`, the largest.
    private func inOrder(_ a: [ModelValue], _ b: [ModelValue], _ keys: [SortKey], nullsLargest: Bool) -> Bool {
        for key in keys {
            var result = a[key.column].sortCompare(to: b[key.column])
            if nullsLargest, a[key.column].isNull != b[key.column].isNull {
                result = a[key.column].isNull ? .orderedDescending : .orderedAscending
            }
            if case .string(let x) = a[key.column], case .string(let y) = b[key.column], result != .orderedSame {
                let folded = x.compare(y, options: [.caseInsensitive, .diacriticInsensitive])
                // Either collation is accepted: the order is wrong only if it is wrong under both.
                if folded == .orderedSame { continue }
                if (folded == .orderedAscending) == key.ascending { return true }
            }
            if result == .orderedSame { continue }
            if !key.ascending { result = result == .orderedAscending ? .orderedDescending : .orderedAscending }
            return result == .orderedAscending
        }
        return true
    }
}
