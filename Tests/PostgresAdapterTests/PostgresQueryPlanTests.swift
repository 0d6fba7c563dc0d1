import Foundation
import ModelSQL
import Testing

import PostgresAdapter

/// A task list whose sorts the plans are checked for: an optional and a non-optional
/// indexed column beside the primary key.
final class PgPlanned: Model {
    static let tableName = "planned"
    @Column var done: Bool = false
    @Column(options: .indexed) var title: String = ""
    @Column(options: .indexed) var rank: Int?
    init() {}
}

/// The SQL a sorted page compiles to can read an index in order: the primary key (no null
/// order spelled out on a column that holds no nulls, no tie-breaker after a unique key)
/// and the indexes the adapter creates (`NULLS FIRST` on optional columns, the order every
/// adapter sorts nulls in). Without that, a page of 20 sorted rows sorts every matching
/// row first — the list route of a server reading 5,000 rows to answer 20.
@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipReason))
struct PostgresQueryPlanTests {
    /// The plan PostgreSQL chooses for `query` when it is told to avoid sorting: a `Sort`
    /// node in it means no index could give the order. (An `Incremental Sort` over an index
    /// — the tie-breaker after an indexed column — reads only the rows the page needs.)
    func plan(_ query: Query<PgPlanned>, _ store: PostgresAdapter) throws -> String {
        let (sql, arguments) = try SQLCompiler.select(try query.storeQuery(), PostgresDialect.shared, columns: "*")
        return try store.transaction {
            _ = try store.rows("SET LOCAL enable_sort = off")
            return try store.rows("EXPLAIN " + sql, arguments).compactMap {
                if case .string(let line) = $0[0] { line } else { nil }
            }.joined(separator: "\n")
        }
    }

    func seeded() throws -> PostgresAdapter {
        let store = try PostgresTestServer.store()
        try store.prepare(PgPlanned.schema)
        try store.transaction {
            for k in 0..<3_000 {
                let todo = PgPlanned()
                todo.done = k % 2 == 0
                todo.title = "todo \(k)"
                todo.rank = k % 7 == 0 ? nil : k % 100
                try todo.save(to: store)
            }
        }
        _ = try store.rows("ANALYZE \"planned\"")
        return store
    }

    @Test func sortedPagesReadAnIndexInOrder() throws {
        let store = try seeded()
        let pages: [(String, Query<PgPlanned>)] = [
            ("id", PgPlanned.where(\.done == false).using(store).order(by: "id").limit(20)),
            ("id descending", PgPlanned.where(\.done == false).using(store).order(by: "id", .descending).limit(20)),
            ("store order", PgPlanned.where(\.done == true).using(store).limit(20)),
            ("non-optional column", PgPlanned.query(in: store).order(by: \.title).limit(20)),
            ("non-optional column descending", PgPlanned.query(in: store).order(by: \.title, .descending).limit(20)),
            ("optional column", PgPlanned.query(in: store).order(by: \.rank).limit(20)),
            ("optional column descending", PgPlanned.query(in: store).order(by: \.rank, .descending).limit(20)),
        ]
        for (name, page) in pages {
            let plan = try plan(page, store)
            let sorts = plan.split(separator: "\n").contains {
                $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "->  ", with: "").hasPrefix("Sort  (")
            }
            #expect(!sorts, "\(name): the plan sorts every matching row\n\(plan)")
            #expect(plan.contains("Index Scan"), "\(name): no index read in order\n\(plan)")
        }
    }

    @Test func indexedSortsKeepEveryAdaptersNullOrder() throws {
        let store = try seeded()
        let ascending = try PgPlanned.query(in: store).order(by: \.rank).limit(430).pluck(\.rank)
        #expect(ascending.prefix(429).allSatisfy { $0 == nil } && ascending.last == 0)
        let descending = try PgPlanned.query(in: store).order(by: \.rank, .descending).all()
        #expect(descending.first?.rank == 99 && descending.last?.rank == nil)
        #expect(descending.suffix(429).allSatisfy { $0.rank == nil })
        // Ties keep store order behind the sorted column; a sort on the id needs no tie-breaker.
        let ties = try PgPlanned.query(in: store).order(by: \.rank).limit(3).pluck(\.id)
        #expect(ties == [1, 8, 15])
        let byID = try PgPlanned.query(in: store).order(by: "id", .descending).limit(2).pluck(\.id)
        #expect(byID == [3_000, 2_999])
    }
}
