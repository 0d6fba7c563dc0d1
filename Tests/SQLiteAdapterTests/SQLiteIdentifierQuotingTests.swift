import Foundation
import ModelSQL
import SQLiteAdapter
import Testing

/// Identifiers are quoted in every statement the adapter writes: a table and columns
/// named with SQL keywords work through creation, writes, filtered and ordered reads,
/// counts and deletes; quoting doubles embedded quotes and keeps any UTF-8 intact.
@Suite struct SQLiteIdentifierQuotingTests {
    final class Keyword: Model {
        static var tableName: String { "order" }
        @Column var select: String = ""
        @Column var group: Int = 0
        init() {}
    }

    @Test func keywordNamesWorkThroughEveryStatement() throws {
        let store = try SQLiteAdapter()
        for (name, rank) in [("b", 2), ("a", 1), ("c", 3)] {
            try Keyword.create(["select": .string(name), "group": .int(Int64(rank))], in: store)
        }
        let ordered = try Keyword.where(\.group >= 2).order(by: \.group, .descending).using(store).all().map(\.select)
        #expect(ordered == ["c", "b"])
        #expect(try Keyword.where(\.select == "a").using(store).count() == 1)

        let b = try #require(try Keyword.where(\.select == "b").using(store).first())
        b.group = 20
        try b.save()
        #expect(try Keyword.where(\.group > 10).using(store).all().map(\.select) == ["b"])
        #expect(try Keyword.where(\.group < 3).using(store).deleteAll() == 1)
        #expect(try Keyword.all(in: store).map(\.select).sorted() == ["b", "c"])
    }

    @Test func quotingDoublesEmbeddedQuotesAndKeepsUTF8() throws {
        #expect(SQLText.quote("name") == #""name""#)
        #expect(SQLText.quote(#"we"ird"#) == #""we""ird""#)
        #expect(SQLText.quote(#""""#) == #""""""""#)
        #expect(SQLText.quote("") == #""""#)
        #expect(SQLText.quote("naïve 東京 🚀") == "\"naïve 東京 🚀\"")
        #expect(SQLText.string("it's") == "'it''s'")
        #expect(SQLText.string(#"say "hi""#) == #"'say "hi"'"#)
        #expect(SQLText.string("a\u{0}b") == nil)

        // Round trip through SQLite itself: the quoted text names exactly the identifier.
        let store = try SQLiteAdapter()
        let odd = #"we"ird 'naïve" ""table"#
        try store.execute("CREATE TABLE \(SQLText.quote(odd)) (\(SQLText.quote(#"col"umn"#)) TEXT)")
        try store.execute("INSERT INTO \(SQLText.quote(odd)) VALUES (\(SQLText.string("it's") ?? "NULL"))")
        let names = try store.rows("SELECT name FROM sqlite_master WHERE type = 'table'", [])
        #expect(names.map { $0["name"] } == [.string(odd)])
        let rows = try store.rows("SELECT \(SQLText.quote(#"col"umn"#)) AS v FROM \(SQLText.quote(odd))", [])
        #expect(rows.map { $0["v"] } == [.string("it's")])
    }
}
