import CSQLiteRaw
import Foundation
import SQLiteAdapter

/// A team of the eager-loading workloads: ten members each.
final class Team: Model {
    @Column var name: String = ""
    @HasMany var members: Children<Member>
    init() {}
}

/// A member of a team.
final class Member: Model {
    @Column var name: String = ""
    @Column var score: Double = 0
    @BelongsTo var team: Team?
    init() {}
}

/// The baseline's rows: plain structs, grouped by hand.
struct TeamRow {
    var id: Int64
    var name: String
}

struct MemberRow {
    var id: Int64
    var name: String
    var score: Double
    var teamID: Int64
}

/// How many members each team has.
let membersPerTeam = 10

/// A SQLite file in a fresh temporary directory with the tables of `schemas` made by
/// SQLiteAdapter; the directory goes when the file is released.
final class SQLiteBenchFile {
    let directory: URL
    let path: String

    init(_ name: String, schemas: [ModelSchema]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("swiftmodel-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent(name).path
        let store = try SQLiteAdapter(path: path)
        for schema in schemas { try store.prepare(schema) }
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// `schema`'s table name quoted for SQL.
    static func table(_ schema: ModelSchema) -> String { "\"" + schema.tableName + "\"" }

    /// Fills the file with the raw API in one transaction: `body` gets the two insert
    /// statements `owners` and `children` prepared (finalized afterwards).
    func insert(_ owners: String, _ children: String, _ body: (_ owner: OpaquePointer, _ child: OpaquePointer) throws -> Void)
        throws
    {
        let raw = try RawSQLite(path: path)
        let owner = try raw.prepare(owners)
        let child = try raw.prepare(children)
        defer {
            sqlite3_finalize(owner)
            sqlite3_finalize(child)
        }
        try raw.transaction { try body(owner, child) }
    }
}

/// A database with `n / 10` teams of ten members, tables made by SQLiteAdapter, rows
/// inserted with the raw API.
final class TeamDatabase {
    let file: SQLiteBenchFile
    var path: String { file.path }
    static var teams: String { SQLiteBenchFile.table(Team.schema) }
    static var members: String { SQLiteBenchFile.table(Member.schema) }

    init(members n: Int) throws {
        file = try SQLiteBenchFile("teams.sqlite", schemas: [Team.schema, Member.schema])
        try file.insert(
            "INSERT INTO \(Self.teams) (name) VALUES (?)", "INSERT INTO \(Self.members) (name, score, team_id) VALUES (?, ?, ?)"
        ) { team, member in
            for t in 0..<max(1, n / membersPerTeam) {
                RawSQLite.bind("team \(t)", team, 1)
                try runToEnd(team)
                for m in 0..<membersPerTeam {
                    RawSQLite.bind("member \(m)", member, 1)
                    sqlite3_bind_double(member, 2, Double(m))
                    sqlite3_bind_int64(member, 3, Int64(t + 1))
                    try runToEnd(member)
                }
            }
        }
    }

    /// All teams and all members into structs (what a hand-written eager load reads).
    func rawRows(_ raw: RawSQLite) throws -> ([TeamRow], [MemberRow]) {
        let teams = try allRows(raw, "SELECT id, name FROM \(Self.teams)") {
            TeamRow(id: sqlite3_column_int64($0, 0), name: RawSQLite.text($0, 1))
        }
        let members = try allRows(raw, "SELECT id, name, score, team_id FROM \(Self.members)") {
            MemberRow(
                id: sqlite3_column_int64($0, 0), name: RawSQLite.text($0, 1), score: sqlite3_column_double($0, 2),
                teamID: sqlite3_column_int64($0, 3))
        }
        return (teams, members)
    }
}

/// Eager loading over SQLite, against the same two reads done with the raw API.
let eagerLoadWorkloads: [Workload] = [
    Workload(
        name: "eager has-many",
        model: { n in
            try withTeams(n) { store in
                let teams = try Team.query(in: store).including(\.members).all()
                var sum = 0.0
                for team in teams { for member in try team.members.all() { sum += member.score } }
                blackHole(sum)
            }
        },
        baseline: { n in
            try withRawTeams(n) { teams, members in
                var byTeam: [Int64: [MemberRow]] = [:]
                for member in members { byTeam[member.teamID, default: []].append(member) }
                var sum = 0.0
                for team in teams { for member in byTeam[team.id] ?? [] { sum += member.score } }
                blackHole(sum)
            }
        },
        reference: { n in
            try withRawTeamObjects(n) { teams, members in
                var byID: [Int64: TeamObject] = [:]
                for team in teams { byID[team.id] = team }
                for member in members { byID[member.teamID]?.members.append(member) }
                var sum = 0.0
                for team in teams { for member in team.members { sum += member.score } }
                blackHole(sum)
            }
        }),
    Workload(
        name: "eager belongs-to",
        model: { n in
            try withTeams(n) { store in
                let members = try Member.query(in: store).including(\.team).all()
                var sum = 0
                for member in members { sum &+= member.team?.name.utf8.count ?? 0 }
                blackHole(sum)
            }
        },
        baseline: { n in
            try withRawTeams(n) { teams, members in
                var byID: [Int64: TeamRow] = [:]
                for team in teams { byID[team.id] = team }
                var sum = 0
                for member in members { sum &+= byID[member.teamID]?.name.utf8.count ?? 0 }
                blackHole(sum)
            }
        },
        reference: { n in
            try withRawTeamObjects(n) { teams, members in
                var byID: [Int64: TeamObject] = [:]
                for team in teams { byID[team.id] = team }
                for member in members { member.team = byID[member.teamID] }
                var sum = 0
                for member in members { sum &+= member.team?.name.utf8.count ?? 0 }
                blackHole(sum)
            }
        }),
]

/// Times `body` on an adapter over a fresh team database of `n` members.
func withTeams(_ n: Int, _ body: (SQLiteAdapter) throws -> Void) throws -> Duration {
    let db = try TeamDatabase(members: n)
    let store = try SQLiteAdapter(path: db.path)
    defer { blackHole(db) }
    return try time { try body(store) }
}

/// Times reading both tables with the raw API plus `body` (the grouping by hand).
func withRawTeams(_ n: Int, _ body: ([TeamRow], [MemberRow]) -> Void) throws -> Duration {
    let db = try TeamDatabase(members: n)
    let raw = try RawSQLite(path: db.path)
    return try time {
        let (teams, members) = try db.rawRows(raw)
        body(teams, members)
    }
}
