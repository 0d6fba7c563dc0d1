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
    let directory: URL
    let path: String
    static var accounts: String { "\"" + Account.schema.tableName + "\"" }
    static var settings: String { "\"" + AccountSettings.schema.tableName + "\"" }

    init(accounts n: Int) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("swiftmodel-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("accounts.sqlite").path
        do {
            let store = try SQLiteAdapter(path: path)
            try store.prepare(Account.schema)
            try store.prepare(AccountSettings.schema)
        }
        let raw = try RawSQLite(path: path)
        let account = try raw.prepare("INSERT INTO \(Self.accounts) (name) VALUES (?)")
        let settings = try raw.prepare("INSERT INTO \(Self.settings) (theme, account_id) VALUES (?, ?)")
        defer {
            sqlite3_finalize(account)
            sqlite3_finalize(settings)
        }
        try raw.transaction {
            for a in 0..<max(1, n) {
                RawSQLite.bind("account \(a)", account, 1)
                try runToEnd(account)
                RawSQLite.bind(a % 2 == 0 ? "light" : "dark", settings, 1)
                sqlite3_bind_int64(settings, 2, Int64(a + 1))
                try runToEnd(settings)
            }
        }
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// All accounts and all settings into structs (what a hand-written eager load reads).
    func rawRows(_ raw: RawSQLite) throws -> ([AccountRow], [SettingsRow]) {
        let accounts = try raw.prepare("SELECT id, name FROM \(Self.accounts)")
        let settings = try raw.prepare("SELECT id, theme, account_id FROM \(Self.settings)")
        defer {
            sqlite3_finalize(accounts)
            sqlite3_finalize(settings)
        }
        var accountRows: [AccountRow] = []
        try eachRow(accounts) { accountRows.append(AccountRow(id: sqlite3_column_int64($0, 0), name: RawSQLite.text($0, 1))) }
        var settingsRows: [SettingsRow] = []
        try eachRow(settings) {
            settingsRows.append(
                SettingsRow(id: sqlite3_column_int64($0, 0), theme: RawSQLite.text($0, 1), accountID: sqlite3_column_int64($0, 2)))
        }
        return (accountRows, settingsRows)
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
