import ModelCore

/// One model operation of an SQL store — the connection call it makes, on which kind of
/// connection, how the reply becomes the answer and how a failure is reported — decided
/// without I/O. Each way of waiting has one driver: ``SQLStore/run(_:)`` on the calling
/// thread (every SQL adapter), and PostgreSQL's async driver on its event loop. So the
/// statements, decoding and error mapping of an operation are written once, whichever
/// driver runs it.
package struct SQLOperation<Answer> {
    /// The connection an operation needs.
    package enum Access {
        /// One that sees the caller's transaction (a replica's when none is open).
        case read
        /// One that writes; the tables it may change (for change notifications).
        case write([String])
    }

    package let access: Access
    package let call: SQLCall
    /// The answer from the call's reply.
    package let answer: (SQLReply) throws -> Answer
    /// The error to throw for the call's failure (a key violation as a `StoreError`, an
    /// overflow of `sum` as the aggregate's).
    package let failure: (any Error) -> any Error

    package init(
        _ access: Access, _ call: SQLCall, failure: @escaping (any Error) -> any Error = { $0 },
        answer: @escaping (SQLReply) throws -> Answer
    ) {
        self.access = access
        self.call = call
        self.answer = answer
        self.failure = failure
    }
}

/// A call on one connection, as ``SQLConnection``'s primitives make it.
package enum SQLCall {
    /// A `SELECT` of the table's columns, decoded as the table's.
    case rows(String, [ModelValue], SQLTable)
    /// Any query, decoded as these slots ask.
    case slots(String, [ModelValue], SQLTable, [SQLResultSlot])
    /// The integer in the first column of the first row.
    case integer(String, [ModelValue])
    /// A statement whose answer is how many rows it changed.
    case run(String, [ModelValue])
    /// The row with this id.
    case find(ModelValue, SQLTable)
    /// Inserts the row; answers its id (the generated one when `row[0]` is null).
    case insert([ModelValue], SQLTable)
    /// Writes these columns of the row with id `row[0]`; answers how many rows changed.
    case updateRow([ModelValue], columns: [Int], SQLTable)
}

/// What a call answered.
package enum SQLReply {
    case rows([[ModelValue]])
    case row([ModelValue]?)
    case count(Int)
    case id(ModelValue)

    package var rows: [[ModelValue]] {
        if case .rows(let rows) = self { return rows }
        return []
    }

    package var row: [ModelValue]? {
        if case .row(let row) = self { return row }
        return nil
    }

    package var count: Int {
        if case .count(let count) = self { return count }
        return 0
    }

    package var id: ModelValue {
        if case .id(let id) = self { return id }
        return .null
    }
}

extension SQLConnection {
    /// Makes `call` with the connection's primitives.
    package func perform(_ call: SQLCall) throws -> SQLReply {
        switch call {
        case .rows(let sql, let arguments, let table): .rows(try rows(sql, arguments, of: table))
        case .slots(let sql, let arguments, let table, let slots): .rows(try rows(sql, arguments, of: table) { _ in slots })
        case .integer(let sql, let arguments): .count(try integer(sql, arguments))
        case .run(let sql, let arguments): .count(try run(sql, arguments))
        case .find(let id, let table): .row(try find(id: id, in: table))
        case .insert(let row, let table): .id(try insert(row, into: table))
        case .updateRow(let row, let columns, let table): .count(try update(row, columns: columns, in: table))
        }
    }
}

extension SQLTable {
    /// The rows matching `query`, ordered by its keys and then store order.
    package func fetchOperation<D: SQLDialect>(_ query: StoreQuery, _ dialect: D) throws -> SQLOperation<[[ModelValue]]> {
        let (sql, arguments) = try select(query, dialect)
        return SQLOperation(.read, .rows(sql, arguments, self)) { $0.rows }
    }

    /// `SELECT count(*)` of the rows matching `query` (limit and offset apply).
    package func countOperation<D: SQLDialect>(_ query: StoreQuery, _ dialect: D) throws -> SQLOperation<Int> {
        let (sql, arguments) = try count(query, dialect)
        return SQLOperation(.read, .integer(sql, arguments)) { $0.count }
    }

    /// Deletes the rows matching `query` in one `DELETE`; `tables` are those it may change.
    package func deleteOperation<D: SQLDialect>(_ query: StoreQuery, _ dialect: D, changing tables: [String]) throws
        -> SQLOperation<Int>
    {
        let (sql, arguments) = try delete(query, dialect)
        return SQLOperation(.write(tables), .run(sql, arguments)) { $0.count }
    }

    /// Sets columns on the rows matching `query` in one `UPDATE` (nil: nothing to set); how
    /// many rows changed. A `.unique` column made to hold one value twice fails as
    /// ``StoreError`` `.uniqueViolation`.
    package func updateOperation<C: SQLConnection, D: SQLDialect>(
        _ query: StoreQuery, set values: [Int: ModelValue], _ dialect: D, on connection: C.Type
    ) throws -> SQLOperation<Int>? {
        guard let (sql, arguments) = try update(query, set: values, dialect) else { return nil }
        return SQLOperation(.write([schema.tableName]), .run(sql, arguments), failure: { self.mapped($0, id: nil, C.violation($0, in: self)) }) {
            $0.count
        }
    }

    /// `query.aggregate` in SQL, with the result types of ``Aggregate`` (see
    /// ``SQLAggregatePlan``); an integer overflow of `sum` fails as `.storage`.
    package func aggregateOperation<C: SQLConnection, D: SQLDialect>(_ query: StoreQuery, _ dialect: D, on connection: C.Type)
        throws -> SQLOperation<[AggregateGroup]>
    {
        let plan = try aggregate(query, dialect)
        return SQLOperation(.read, .slots(plan.sql, plan.arguments, plan.table, plan.slots), failure: { C.isOverflow($0) ? plan.overflow : $0 }) {
            plan.groups($0.rows)
        }
    }

    /// The row with this id.
    package func findOperation(_ id: ModelValue) -> SQLOperation<[ModelValue]?> {
        SQLOperation(.read, .find(id, self)) { $0.row }
    }

    /// Deletes the row with this id; whether there was one. `tables` are those it may change.
    package func deleteOperation(id: ModelValue, changing tables: [String]) -> SQLOperation<Bool> {
        SQLOperation(.write(tables), .run(deleteSQL, [id])) { $0.count > 0 }
    }
}

extension SQLStore {
    /// Runs `operation` on the calling thread, on a connection of the kind it needs.
    package func run<Answer>(_ operation: SQLOperation<Answer>) throws -> Answer {
        let reply: SQLReply
        do {
            switch operation.access {
            case .read: reply = try reading { try $0.perform(operation.call) }
            case .write(let tables): reply = try writing(tables) { try $0.perform(operation.call) }
            }
        } catch {
            throw operation.failure(error)
        }
        return try operation.answer(reply)
    }
}
