import ModelCore

extension QueryEngine {
    /// Computes `query.aggregate` over the rows `query` selects from `source`, with the
    /// semantics documented on ``Aggregate`` (SQLite's, so every adapter agrees).
    ///
    /// - Throws: ``StoreError`` `.invalidRequest` without an aggregate or with a bad column;
    ///   `.storage` on integer overflow in `sum`.
    public static func aggregate<Source: RowSource>(_ query: StoreQuery, from source: Source) throws -> [AggregateGroup] {
        let aggregate = try query.checkedAggregate()
        let rows = select(query, from: source)
        if aggregate.groupBy.isEmpty {
            var accumulator = Accumulator()
            for row in rows { accumulator.add(aggregate.column.map { row[$0] }) }
            return [AggregateGroup(keys: [], value: try accumulator.result(aggregate, query.schema))]
        }
        var groups: [[ModelValue]: Int] = [:]
        var keys: [[ModelValue]] = []
        var accumulators: [Accumulator] = []
        for row in rows {
            let key = aggregate.groupBy.map { row[$0] }
            let k: Int
            if let existing = groups[key] {
                k = existing
            } else {
                k = keys.count
                groups[key] = k
                keys.append(key)
                accumulators.append(Accumulator())
            }
            accumulators[k].add(aggregate.column.map { row[$0] })
        }
        let order = keys.indices.sorted { a, b in
            for (x, y) in zip(keys[a], keys[b]) {
                let r = x.sortCompare(to: y)
                if r != .orderedSame { return r == .orderedAscending }
            }
            return false
        }
        return try order.map { AggregateGroup(keys: keys[$0], value: try accumulators[$0].result(aggregate, query.schema)) }
    }
}

/// Running state of one aggregate, mirroring SQLite's `sum`/`avg`/`min`/`max`/`count`.
struct Accumulator {
    var rows = 0
    var values = 0
    var integerSum: Int64 = 0
    var doubleSum = 0.0
    var approximate = false
    var overflow = false
    var least: ModelValue?
    var greatest: ModelValue?

    /// Adds one row; `value` is the aggregated column's value (`nil` when counting rows).
    mutating func add(_ value: ModelValue?) {
        rows += 1
        guard let value, !value.isNull else { return }
        values += 1
        switch value {
        case .int(let i): addInteger(i)
        case .bool(let b): addInteger(b ? 1 : 0)
        case .double(let d):
            doubleSum += d
            approximate = true
        default: break
        }
        if least.map({ value.sortCompare(to: $0) == .orderedAscending }) ?? true { least = value }
        if greatest.map({ value.sortCompare(to: $0) == .orderedDescending }) ?? true { greatest = value }
    }

    private mutating func addInteger(_ i: Int64) {
        doubleSum += Double(i)
        guard !approximate, !overflow else { return }
        let (sum, overflowed) = integerSum.addingReportingOverflow(i)
        if overflowed {
            overflow = true
            approximate = true
        } else {
            integerSum = sum
        }
    }

    func result(_ aggregate: Aggregate, _ schema: ModelSchema) throws -> ModelValue {
        switch aggregate.function {
        case .count: return .int(Int64(aggregate.column == nil ? rows : values))
        case .sum:
            guard values > 0 else { return .null }
            if overflow {
                let column = aggregate.column.map { schema.columns[$0].name } ?? "?"
                throw StoreError(.storage, table: schema.tableName, message: "integer overflow in sum(\(column))")
            }
            return approximate ? .double(doubleSum) : .int(integerSum)
        case .average: return values > 0 ? .double(doubleSum / Double(values)) : .null
        case .min: return least ?? .null
        case .max: return greatest ?? .null
        }
    }
}
