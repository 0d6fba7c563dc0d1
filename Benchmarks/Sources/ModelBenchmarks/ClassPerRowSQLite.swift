import CSQLiteRaw
import Foundation

/// The second baseline of the SQLite and eager-loading read workloads: the raw C API, but
/// each row read into a new final class instance, as the model API returns records.
///
/// The first baseline reads rows into structs kept in place in one array, which a
/// reference-type API cannot reach: each record it hands out is an object of its own, made
/// and later freed. The model's ratio to this reference is what the model layer adds over
/// the shape of its own API (issue 41; ``LockedClassBaseline`` is the same idea for the
/// ArrayAdapter workloads).
enum ClassPerRowSQLite {
    /// `fetch all`: every row into a ``PersonObject``.
    static func fetchAll(_ n: Int) throws -> Duration {
        try measureRaw(seed: n) { raw in
            let select = try raw.prepare(RawSQL.selectAll)
            defer { sqlite3_finalize(select) }
            return try time {
                var all: [PersonObject] = []
                try eachRow(select) { all.append(PersonObject(RawSQLite.row($0))) }
                var sum = 0
                for p in all { sum &+= p.age }
                blackHole(sum)
            }
        }
    }

    /// `10k lookups by id`: each found row into a new ``PersonObject``, handed to the caller
    /// (`found` is not inlined, so the object is allocated as a found record is).
    static func lookupsByID(_ n: Int, lookups: Int) throws -> Duration {
        try measureRaw(seed: n) { raw in
            let find = try raw.prepare(RawSQL.find)
            defer { sqlite3_finalize(find) }
            let ids = Fixture.lookupIDs(lookups, n: n)
            return time {
                var sum = 0
                for id in ids { sum &+= found(id, find)?.age ?? 0 }
                blackHole(sum)
            }
        }
    }

    /// The row with `id` as a new object, or nil.
    @inline(never) private static func found(_ id: Int64, _ find: OpaquePointer) -> PersonObject? {
        sqlite3_bind_int64(find, 1, id)
        defer { sqlite3_reset(find) }
        return sqlite3_step(find) == SQLITE_ROW ? PersonObject(RawSQLite.row(find)) : nil
    }

    /// `filtered query x200`: each matching row into a ``PersonObject``.
    static func filtered(_ n: Int, repeats: Int) throws -> Duration {
        try measureRaw(seed: n) { raw in
            try timeRawFiltered(raw, repeats: repeats, { PersonObject(RawSQLite.row($0)) }, score: \.score)
        }
    }
}

/// A team of the eager-loading reference: its members linked in an array.
final class TeamObject {
    let id: Int64
    let name: String
    var members: [MemberObject] = []

    init(id: Int64, name: String) {
        (self.id, self.name) = (id, name)
    }
}

/// A member of the eager-loading reference, linked to its team.
final class MemberObject {
    let id: Int64
    let name: String
    let score: Double
    let teamID: Int64
    var team: TeamObject?

    init(id: Int64, name: String, score: Double, teamID: Int64) {
        (self.id, self.name, self.score, self.teamID) = (id, name, score, teamID)
    }
}

extension TeamDatabase {
    /// All teams and all members into a new object per row (what a hand-written eager load
    /// of reference-type records reads).
    func rawObjects(_ raw: RawSQLite) throws -> ([TeamObject], [MemberObject]) {
        let teams = try allRows(raw, "SELECT id, name FROM \(Self.teams)") {
            TeamObject(id: sqlite3_column_int64($0, 0), name: RawSQLite.text($0, 1))
        }
        let members = try allRows(raw, "SELECT id, name, score, team_id FROM \(Self.members)") {
            MemberObject(
                id: sqlite3_column_int64($0, 0), name: RawSQLite.text($0, 1), score: sqlite3_column_double($0, 2),
                teamID: sqlite3_column_int64($0, 3))
        }
        return (teams, members)
    }
}

/// Times reading both tables into objects with the raw API plus `body` (the linking by hand).
func withRawTeamObjects(_ n: Int, _ body: ([TeamObject], [MemberObject]) -> Void) throws -> Duration {
    let db = try TeamDatabase(members: n)
    let raw = try RawSQLite(path: db.path)
    return try time {
        let (teams, members) = try db.rawObjects(raw)
        body(teams, members)
    }
}
