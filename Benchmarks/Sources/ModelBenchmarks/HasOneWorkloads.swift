import CSQLiteRaw
import Foundation
import SQLiteAdapter

/// An account of the has-one workload: one settings row each.
final class Account: Model {
    @Column var name: String = ""
    @HasOne var settings: AccountSettings?
    init() {}
}

/// An account's settings.
final class AccountSettings: Model {
    @Column var theme: String = ""
    @BelongsTo var account: Account?
    init() {}
}

/// The baseline's rows: plain structs, grouped by hand.
struct AccountRow {
    var id: Int64
    var name: String
}

struct SettingsRow {
    var id: Int64
    var theme: String
    var accountID: Int64
}

/// A database with `n` accounts and one settings row each, tables made by SQLiteAdapter,
/// rows inserted with the raw API.
final class AccountDatabase {
    let file: SQLiteBenchFile
    var path: String { file.path }
    static var accounts: String { SQLiteBenchFile.table(Account.schema) }
    static var settings: String { SQLiteBenchFile.table(AccountSettings.schema) }

    init(accounts n: Int) throws {
        file = try SQLiteBenchFile("accounts.sqlite", schemas: [Account.schema, AccountSettings.schema])
        try file.insert(
            "INSERT INTO \(Self.accounts) (name) VALUES (?)", "INSERT INTO \(Self.settings) (theme, account_id) VALUES (?, ?)"
        ) { account, settings in
            for a in 0..<max(1, n) {
                RawSQLite.bind("account \(a)", account, 1)
                try runToEnd(account)
                RawSQLite.bind(a % 2 == 0 ? "light" : "dark", settings, 1)
                sqlite3_bind_int64(settings, 2, Int64(a + 1))
                try runToEnd(settings)
            }
        }
    }

    /// All accounts and all settings into structs (what a hand-written eager load reads).
    func rawRows(_ raw: RawSQLite) throws -> ([AccountRow], [SettingsRow]) {
        let accounts = try allRows(raw, "SELECT id, name FROM \(Self.accounts)") {
            AccountRow(id: sqlite3_column_int64($0, 0), name: RawSQLite.text($0, 1))
        }
        let settings = try allRows(raw, "SELECT id, theme, account_id FROM \(Self.settings)") {
            SettingsRow(id: sqlite3_column_int64($0, 0), theme: RawSQLite.text($0, 1), accountID: sqlite3_column_int64($0, 2))
        }
        return (accounts, settings)
    }
}

/// Eager loading of a has-one relation, then reading it through the property, against the
/// same two reads with the raw API grouped by hand.
let hasOneWorkloads: [Workload] = [
    Workload(
        name: "eager has-one",
        model: { n in
            let db = try AccountDatabase(accounts: n)
            let store = try SQLiteAdapter(path: db.path)
            defer { blackHole(db) }
            return try time {
                let accounts = try Account.query(in: store).including(\.settings).all()
                var sum = 0
                for account in accounts { sum &+= account.settings?.theme.utf8.count ?? 0 }
                blackHole(sum)
            }
        },
        baseline: { n in
            let db = try AccountDatabase(accounts: n)
            let raw = try RawSQLite(path: db.path)
            return try time {
                let (accounts, settings) = try db.rawRows(raw)
                var byAccount: [Int64: SettingsRow] = [:]
                for row in settings { byAccount[row.accountID] = row }
                var sum = 0
                for account in accounts { sum &+= byAccount[account.id]?.theme.utf8.count ?? 0 }
                blackHole(sum)
            }
        })
]
