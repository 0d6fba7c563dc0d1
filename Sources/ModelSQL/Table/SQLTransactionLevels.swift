import ModelCore

/// The open levels of one transaction on one connection — the outermost `BEGIN` and a
/// `SAVEPOINT` per nested level — with the tables prepared at each level.
///
/// A table prepared inside a transaction is visible only to it (other connections cannot
/// see its DDL yet): it is found here by ``pending(_:)``, moves to the enclosing level when
/// a savepoint is released, is dropped with a rolled-back level, and is handed back by
/// ``end()`` for the adapter to publish in its ``SQLTableCatalog`` once `COMMIT` succeeds.
///
/// Not thread-safe: its owner (the transaction) uses it under the lock that serialises the
/// transaction's calls.
package final class SQLTransactionLevels {
    // Unchecked: used only under the transaction's lock and never re-entrantly, and
    // ``pending(_:)`` runs on every write of a transaction that prepared its table (a
    // dynamic exclusivity check there was about 76 instructions an insert; measured with
    // TransactionHandle's: `Scripts/instructions.py --adapter sqlite --n 5000`, insert
    // +1.3 % and delete half +2.7 % without them).
    @exclusivity(unchecked) private var levels: [[ObjectIdentifier: SQLTable]] = []

    package init() {}

    /// How many levels are open (0: no transaction).
    package var depth: Int { levels.count }

    /// Opens the outermost level.
    package func begin() { levels = [[:]] }

    /// Closes every level; returns the tables prepared inside (to publish after a commit).
    @discardableResult
    package func end() -> [SQLTable] {
        defer { levels = [] }
        return levels.flatMap(\.values)
    }

    /// A table this transaction prepared, at any open level.
    package func pending(_ schema: ModelSchema) -> SQLTable? {
        let key = ObjectIdentifier(schema)
        for level in levels.reversed() {
            if let table = level[key] { return table }
        }
        return nil
    }

    /// Records a table prepared at the innermost level; false when no level is open.
    package func add(_ table: SQLTable) -> Bool {
        guard !levels.isEmpty else { return false }
        levels[levels.count - 1][ObjectIdentifier(table.schema)] = table
        return true
    }

    /// Runs `body` in a nested level: `SAVEPOINT`, then `RELEASE` when it returns, or
    /// `ROLLBACK TO` (dropping the tables prepared inside) when it throws or the release
    /// fails. The error is rethrown.
    package func savepoint<Connection: SQLConnection, R>(on connection: Connection, _ body: () throws -> R) throws -> R {
        let name = "swiftmodel_\(levels.count)"
        try connection.executeScript("SAVEPOINT \(name)")
        levels.append([:])
        let result: R
        do {
            result = try body()
            try connection.executeScript("RELEASE SAVEPOINT \(name)")
        } catch {
            levels.removeLast()
            try? connection.executeScript("ROLLBACK TO SAVEPOINT \(name); RELEASE SAVEPOINT \(name)")
            throw error
        }
        let prepared = levels.removeLast()
        levels[levels.count - 1].merge(prepared) { _, new in new }
        return result
    }
}
