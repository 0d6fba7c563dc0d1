import Foundation
import ModelCore

/// Runs the same random data and queries on several stores and reports every
/// difference: rows, order, counts, aggregates and errors must be identical.
///
/// ```swift
/// let mismatches = try DifferentialRun(seed: 7, rows: 60, queries: 250)
///     .compare(["memory": ArrayAdapter(), "sqlite": try SQLiteAdapter()])
/// #expect(mismatches.isEmpty, "\(mismatches)")
/// ```
///
/// Each mismatch names the seed, the query number and the query, so it can be replayed
/// with the same seed. The first store is the reference.
public struct DifferentialRun: Sendable {
    /// The seed the data and queries derive from.
    public let seed: UInt64
    /// How many rows to insert.
    public let rows: Int
    /// How many queries to run.
    public let queries: Int
    /// Whether generated strings avoid NUL (for stores with ``AdapterLimitations/textWithoutNUL``).
    public var textWithoutNUL = false

    /// A run; `queries` defaults to the `SWIFTMODEL_DIFFERENTIAL_QUERIES` environment
    /// variable when set (for long runs), else 250.
    public init(seed: UInt64, rows: Int = 60, queries: Int? = nil) {
        self.seed = seed
        self.rows = rows
        self.queries =
            queries ?? ProcessInfo.processInfo.environment["SWIFTMODEL_DIFFERENTIAL_QUERIES"].flatMap(Int.init) ?? 250
    }

    /// The schema the run stores rows of.
    public static var schema: ModelSchema { ConformancePerson.schema }

    /// Seeds every store with the same rows, runs every query on each, and returns the
    /// differences (empty when all agree).
    public func compare(_ stores: KeyValuePairs<String, any PersistenceAdapter>) throws -> [String] {
        var generator = QueryGenerator(random: SeededRandom(seed: seed), textWithoutNUL: textWithoutNUL)
        let schema = Self.schema
        for _ in 0..<rows {
            let row = generator.row()
            for (_, store) in stores { _ = try store.insert(row, into: schema) }
        }
        var mismatches: [String] = []
        for number in 0..<queries {
            let query = generator.query(schema)
            let results = stores.map { (name: $0.key, outcome: Self.outcome(query, on: $0.value)) }
            guard let reference = results.first else { break }
            for other in results.dropFirst() where !Self.same(reference.outcome, other.outcome) {
                mismatches.append(
                    "seed \(seed) query \(number): \(Self.describe(query))\n  \(reference.name): \(reference.outcome)\n  \(other.name): \(other.outcome)")
            }
        }
        return mismatches
    }

    /// What a query returns on one store, as comparable text-free values.
    enum Outcome: Equatable, CustomStringConvertible {
        case rows([[ModelValue]], count: Int)
        case groups([AggregateGroup])
        case failed(String)

        var description: String {
            switch self {
            case .rows(let rows, let count): "\(count) rows \(rows.map { $0[0] })"
            case .groups(let groups): "\(groups)"
            case .failed(let error): "error \(error)"
            }
        }
    }

    static func outcome(_ query: StoreQuery, on store: any PersistenceAdapter) -> Outcome {
        do {
            if query.aggregate != nil { return .groups(try store.aggregate(query)) }
            return .rows(try store.fetch(query), count: try store.count(query))
        } catch {
            return .failed("\(type(of: error))")
        }
    }

    /// Equal, with doubles compared to 1e-12 relative (summation order may differ).
    static func same(_ a: Outcome, _ b: Outcome) -> Bool {
        guard case .groups(let x) = a, case .groups(let y) = b, x.count == y.count else { return a == b }
        return zip(x, y).allSatisfy { p, q in
            guard p.keys == q.keys else { return false }
            if case .double(let u) = p.value, case .double(let v) = q.value {
                return u == v || abs(u - v) <= 1e-12 * max(abs(u), abs(v))
            }
            return p.value == q.value
        }
    }

    static func describe(_ query: StoreQuery) -> String {
        var text = query.predicate.map { "\($0)" } ?? "all"
        if !query.sort.isEmpty { text += " sort \(query.sort.map { "\($0.column)\($0.ascending ? "↑" : "↓")" })" }
        if let limit = query.limit { text += " limit \(limit)" }
        if query.offset > 0 { text += " offset \(query.offset)" }
        if let aggregate = query.aggregate {
            text += " \(aggregate.function.rawValue)(\(aggregate.column.map(String.init) ?? "*")) group \(aggregate.groupBy)"
        }
        return text
    }
}
