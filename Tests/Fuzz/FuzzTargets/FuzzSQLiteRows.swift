import Foundation
import SQLiteAdapter

/// The SQLite row decoder on rows another program could have written: each column gets
/// NULL, an integer, a real, text (any bytes, valid UTF-8 or not) or a blob. Reading the
/// rows back through the model succeeds or throws a typed error.
public func fuzzSQLiteRows(_ bytes: UnsafeRawBufferPointer) {
    var input = FuzzInput(bytes)
    guard let store = sqliteFuzzStore.withLock({ $0 }) else { fuzzFailure("no SQLite store") }
    let schema = FuzzGadget.schema
    let columns = schema.columnNames.filter { $0 != "id" }
    var placeholders: [String] = [], arguments: [ModelValue] = []
    for _ in columns {
        switch input.byte() % 5 {
        case 0: placeholders.append("NULL")
        case 1:
            placeholders.append("?")
            arguments.append(.int(Int64(bitPattern: input.word())))
        case 2:
            placeholders.append("?")
            arguments.append(.double(Double(bitPattern: input.word())))
        case 3:
            placeholders.append("CAST(? AS TEXT)")
            arguments.append(.data(Data(input.data())))
        default:
            placeholders.append("?")
            arguments.append(.data(Data(input.data())))
        }
    }
    let table = "\"\(schema.tableName)\""
    let names = columns.map { "\"\($0)\"" }.joined(separator: ", ")
    do {
        try store.execute("DELETE FROM \(table)")
        try store.execute("INSERT INTO \(table) (\(names)) VALUES (\(placeholders.joined(separator: ", ")))", arguments)
    } catch {
        return  // a constraint refused the row: nothing to read
    }
    do {
        _ = try FuzzGadget.query(in: store).all()
        _ = try FuzzGadget.query(in: store).order(by: \.count).first()
    } catch is InvalidStoredValue {
    } catch is SQLiteError {
    } catch is StoreError {
    } catch is CastError {
    } catch is ModelError {
    } catch {
        fuzzFailure("an untyped error: \(type(of: error)) \(error)")
    }
}

/// One in-memory database for every input, with the table created.
let sqliteFuzzStore = Locked<SQLiteAdapter?>({
    guard let store = try? SQLiteAdapter() else { return nil }
    try? FuzzGadget().save(to: store)  // creates the table
    return store
}())
