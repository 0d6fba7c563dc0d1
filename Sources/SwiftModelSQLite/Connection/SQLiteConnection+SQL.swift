import ModelSQL
import SwiftModelCSQLite

/// The shared table layer's primitives on a SQLite connection: the hot paths run on
/// statements cached per table (``TableStatements``), everything else on the cache by SQL
/// text; errors carry the bound values.
extension SQLiteConnection: SQLConnection {
    package func executeScript(_ sql: String) throws { try execute(sql) }

    package func columnNames(ofTable table: String) throws -> Set<String> {
        try query("SELECT name FROM pragma_table_info(?)", [.string(table)]) { statement in
            var names: Set<String> = []
            while try statement.step() { names.insert(statement.text(at: 0)) }
            return names
        }
    }

    /// One cached `INSERT`; a null id of an auto-increment model becomes the next rowid
    /// (`AUTOINCREMENT`: never reused).
    package func insert(_ row: [ModelValue], into table: SQLTable) throws -> ModelValue {
        let statements = statements(for: table.schema)
        let statement = try tableStatement(statements.insert, table.insertSQL) { statements.insert = $0 }
        defer { statement.reset() }
        do {
            try statement.bind(table.stored(row))
            _ = try statement.step()
        } catch let error as SQLiteError {
            throw error.with(arguments: row)
        }
        return row[0].isNull ? .int(lastInsertRowID) : row[0]
    }

    /// One cached `UPDATE` per set of columns (up to 64 sets per table).
    package func update(_ row: [ModelValue], columns: [Int], in table: SQLTable) throws -> Int {
        let statements = statements(for: table.schema)
        let statement: SQLiteStatement
        if let cached = statements.update(columns) {
            statement = cached
        } else {
            statement = try prepare(table.updateSQL(columns))
            statements.keep(statement, for: columns)
        }
        defer { statement.reset() }
        do {
            var index: Int32 = 1
            for column in columns {
                try statement.bind(table.stored(row[column], column), at: index)
                index += 1
            }
            try statement.bind(row[0], at: index)
            _ = try statement.step()
        } catch let error as SQLiteError {
            throw error.with(arguments: columns.map { row[$0] } + [row[0]])
        }
        return changes
    }

    package func delete(id: ModelValue, from table: SQLTable) throws -> Int {
        let statements = statements(for: table.schema)
        let statement = try tableStatement(statements.deleteByID, table.deleteSQL) { statements.deleteByID = $0 }
        defer { statement.reset() }
        do {
            try statement.bind(id, at: 1)
            _ = try statement.step()
        } catch let error as SQLiteError {
            throw error.with(arguments: [id])
        }
        return changes
    }

    package func find(id: ModelValue, in table: SQLTable) throws -> [ModelValue]? {
        let statements = statements(for: table.schema)
        let statement = try tableStatement(statements.find, table.findSQL) { statements.find = $0 }
        defer { statement.reset() }
        try statement.bind(id, at: 1)
        return try statement.step() ? statement.row(table) : nil
    }

    package func rows(_ sql: String, _ arguments: [ModelValue], of table: SQLTable) throws -> [[ModelValue]] {
        try query(sql, arguments) { statement in
            var rows: [[ModelValue]] = []
            while try statement.step() { rows.append(try statement.row(table)) }
            return rows
        }
    }

    package func rows(
        _ sql: String, _ arguments: [ModelValue], of table: SQLTable, slots: ([String]) throws -> [SQLResultSlot]
    ) throws -> [[ModelValue]] {
        try query(sql, arguments) { statement in
            let slots = try slots(statement.columnNames)
            let id = slots.first { $0.column == 0 }.map { Int32($0.position) }
            let name = table.schema.tableName
            var rows: [[ModelValue]] = []
            while try statement.step() {
                rows.append(
                    try slots.map { slot in
                        let position = Int32(slot.position)
                        guard let k = slot.column else { return statement.rawValue(at: position) }
                        return try statement.value(at: position, as: table.columns[k], table: name, idAt: id, dates: table.dates[k])
                    })
            }
            return rows
        }
    }

    package func integer(_ sql: String, _ arguments: [ModelValue]) throws -> Int {
        try query(sql, arguments) { statement in try statement.step() ? Int(sqlite3_column_int64(statement.handle, 0)) : 0 }
    }

    /// `UNIQUE constraint failed: table.column` names the column; a primary key has its own
    /// extended code.
    package static func violation(_ error: any Error, in table: SQLTable) -> SQLKeyViolation? {
        guard let error = error as? SQLiteError else { return nil }
        if error.extendedCode == ExtendedCode.primaryKey { return .primaryKey }
        guard error.extendedCode == ExtendedCode.unique else { return nil }
        let prefix = "UNIQUE constraint failed: \(table.schema.tableName)."
        let named = error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : nil
        return .unique(column: table.columns.first { $0.name == named }?.name)
    }

    package static func isOverflow(_ error: any Error) -> Bool {
        (error as? SQLiteError)?.message.contains("integer overflow") == true
    }

    package static func mismatch(_ message: String, sql: String) -> any Error { SQLiteError.mismatch(message, sql: sql) }

    /// The hot-path statements of `schema`'s table on this connection.
    @inline(__always) func statements(for schema: ModelSchema) -> TableStatements {
        if let last = lastTable, last.schema === schema { return last.statements }
        return statements(hashing: schema)
    }

    /// ``statements(for:)`` through the per-connection table, remembered as the last used.
    private func statements(hashing schema: ModelSchema) -> TableStatements {
        let statements: TableStatements
        if let known = tables[ObjectIdentifier(schema)] {
            statements = known
        } else {
            statements = TableStatements()
            tables[ObjectIdentifier(schema)] = statements
        }
        lastTable = (schema, statements)
        return statements
    }

    /// `statement` when a table's hot-path statement is prepared already; otherwise `sql`
    /// prepared and handed to `keep`. (Storing the cached statement back on every call
    /// cost a retain and a release, about 40 instructions a find.)
    @inline(__always) func tableStatement(_ statement: SQLiteStatement?, _ sql: @autoclosure () -> String, keep: (SQLiteStatement) -> Void)
        throws -> SQLiteStatement
    {
        if let statement { return statement }
        let prepared = try prepare(sql())
        keep(prepared)
        return prepared
    }

    /// Runs a cached statement with `arguments`, hands it to `read`, then resets it.
    @inline(__always) func query<R>(_ sql: String, _ arguments: [ModelValue], _ read: (SQLiteStatement) throws -> R) throws -> R {
        let statement = try cached(sql)
        defer { statement.reset() }
        do {
            try statement.bind(arguments)
            return try read(statement)
        } catch let error as SQLiteError {
            throw error.with(arguments: arguments)
        }
    }
}

extension SQLiteError {
    /// The same error, remembering the bound values (kept out of `description`).
    func with(arguments: [ModelValue]) -> SQLiteError {
        SQLiteError(code: code, extendedCode: extendedCode, message: message, sql: sql, arguments: arguments)
    }
}
