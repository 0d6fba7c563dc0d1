// Generated from Docs/Querying.md by Scripts/doc-snippets.py: do not edit; edit the document and rerun.
// swift-format-ignore-file

import ArrayAdapter
import FileAdapter
import Foundation
import SQLiteAdapter
import Testing

// Docs/Querying.md, snippet 7 (line 149)
extension QueryingDoc_Person {
    static let seasoned = QueryingDoc_Person.where(\.age >= 35)                              // named scope
    static func olderThan(_ age: Int) -> Query<QueryingDoc_Person> { QueryingDoc_Person.where(\.age > age) }  // dynamic scope
}

// Docs/Querying.md, snippet 8 (line 161)
extension Query where M == QueryingDoc_Person {
    var active: Query<QueryingDoc_Person> { self.where(\.active == true) }
    func scoring(atLeast s: Double) -> Query<QueryingDoc_Person> { self.where(\.score >= s) }
}

extension QueryingDoc {
    /// Docs/Querying.md, snippet 1 (line 13).
    static func snippet1(_ context: Context) throws {
        let todos = try QueryingDoc_Todo.where("assigned_to").eq("bob").and("location").contains("seattle").all()
        try show(QueryingDoc_Todo.where("priority").between(1, 3).or("done").eq(true).count())
        try show(QueryingDoc_Todo.where("name").not.beginsWith("tmp").all())
        show(todos)
    }

    /// Docs/Querying.md, snippet 2 (line 21).
    static func snippet2(_ context: Context) throws {
        try show(QueryingDoc_Person.where(\.age > 30 && \.city == "Paris").all())
        try show(QueryingDoc_Person.where(.between(\.age, 30, 40) || .contains(\.name, "ann", caseInsensitive: true)).all())
        try show(QueryingDoc_Person.where(!(\.email == nil)).count())
    }

    /// Docs/Querying.md, snippet 3 (line 30).
    static func snippet3(_ context: Context) throws {
        let name = "bob", since = Date.now, cities: Set = ["Paris", "Lyon"]
        try show(QueryingDoc_Todo.where("assigned_to").eq(name).and("due").gte(since).all())
        try show(QueryingDoc_Person.where("city").in(cities).where("age").between(30...40).count())
        show(name)
    }

    /// Docs/Querying.md, snippet 4 (line 75).
    static func snippet4(_ context: Context) throws {
        show(QueryingDoc_Person.order(by: \.score, .descending).order(by: "name"))    // several keys, most significant first
    }

    /// Docs/Querying.md, snippet 5 (line 108).
    static func snippet5(_ context: Context) throws {
        try show(QueryingDoc_Person.where(\.city == "Paris").sum(\.score))       // Double?
        try show(QueryingDoc_Person.query().average("age"))                       // ModelValue: .double or .null
        try show(QueryingDoc_Person.query().min(\.joined))
        try show(QueryingDoc_Person.query().max("name"))
        try show(QueryingDoc_Person.query().group(by: "city").count())            // [AggregateGroup] (key, value)
        try show(QueryingDoc_Person.query().group(by: "active", "city").sum("score"))
    }

    /// Docs/Querying.md, snippet 6 (line 134).
    static func snippet6(_ context: Context) throws {
        let dogs = try QueryingDoc_Todo.find { $0.name.contains("dog") }
        try show(QueryingDoc_Todo.where(\.done == false).filter { $0.tags.contains("home") }.order(by: "due_date").page(1, per: 20))
        show(dogs)
    }

    /// Docs/Querying.md, snippet 7 (line 149).
    static func snippet7(_ context: Context) throws {

        try show(QueryingDoc_Person.seasoned.merging(QueryingDoc_Person.olderThan(40)).order(by: "name").all())
        try show(QueryingDoc_Person.seasoned.where("city").eq("Seattle").count())
    }

    /// Docs/Querying.md, snippet 8 (line 161).
    static func snippet8(_ context: Context) throws {
        try show(QueryingDoc_Person.seasoned.active.scoring(atLeast: 6).all())
    }

    /// Docs/Querying.md, snippet 9 (line 174).
    static func snippet9(_ context: Context) throws {
        let cutoff = context.cutoff
        let level = context.level
        try show(QueryingDoc_Todo.where("done").eq(true).deleteAll())                     // Int: rows deleted
        try show(QueryingDoc_Todo.where("done").eq(true).updateAll(["archived": true]))   // Int: rows changed
        try show(QueryingDoc_Todo.where(\.due < cutoff).updateAll(\.done, to: true))      // by key path
        try show(QueryingDoc_Todo.query().updateAll([\.done: false, \.priority: level]))  // several, Swift values
        try show(QueryingDoc_Person.query().group(by: \.city).count())                    // grouping by key path
    }
}

@Suite("Docs/Querying.md snippets") struct QueryingDocSnippetTests {
    @Test func snippet1() throws { try privately { try QueryingDoc.withContext { try QueryingDoc.snippet1($0) } } }
    @Test func snippet2() throws { try privately { try QueryingDoc.withContext { try QueryingDoc.snippet2($0) } } }
    @Test func snippet3() throws { try privately { try QueryingDoc.withContext { try QueryingDoc.snippet3($0) } } }
    @Test func snippet4() throws { try privately { try QueryingDoc.withContext { try QueryingDoc.snippet4($0) } } }
    @Test func snippet5() throws { try privately { try QueryingDoc.withContext { try QueryingDoc.snippet5($0) } } }
    @Test func snippet6() throws { try privately { try QueryingDoc.withContext { try QueryingDoc.snippet6($0) } } }
    @Test func snippet7() throws { try privately { try QueryingDoc.withContext { try QueryingDoc.snippet7($0) } } }
    @Test func snippet8() throws { try privately { try QueryingDoc.withContext { try QueryingDoc.snippet8($0) } } }
    @Test func snippet9() throws { try privately { try QueryingDoc.withContext { try QueryingDoc.snippet9($0) } } }
}
