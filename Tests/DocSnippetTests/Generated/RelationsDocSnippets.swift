// Generated from Docs/Relations.md by Scripts/doc-snippets.py: do not edit; edit the document and rerun.
// swift-format-ignore-file

import ArrayAdapter
import FileAdapter
import Foundation
import SQLiteAdapter
import Testing

// Docs/Relations.md, snippet 1 (line 8)
final class RelationsDoc_Todo: Model {
    @Column var name = ""
    @HasMany(dependent: .destroy) var assignees: Children<RelationsDoc_Assignee>
    init() {}
}

// Docs/Relations.md, snippet 1 (line 8)
final class RelationsDoc_Assignee: Model {
    @Column var name = ""
    @BelongsTo var todo: RelationsDoc_Todo?          // adds the column "todo_id"
    @HasMany(dependent: .delete) var comments: Children<RelationsDoc_Comment>
    init() {}
}

// Docs/Relations.md, snippet 1 (line 8)
final class RelationsDoc_Comment: Model {
    @Column var body = ""
    @BelongsTo var assignee: RelationsDoc_Assignee?
    init() {}
}

// Docs/Relations.md, snippet 2 (line 69)
final class RelationsDoc_Mail: Model {
    @BelongsTo var sender: RelationsDoc_Person?
    @BelongsTo var recipient: RelationsDoc_Person?
    init() {}
}

// Docs/Relations.md, snippet 2 (line 69)
final class RelationsDoc_Person: Model {
    @HasMany(\RelationsDoc_Mail.sender) var sent: Children<RelationsDoc_Mail>
    @HasMany(\RelationsDoc_Mail.recipient, dependent: .delete) var received: Children<RelationsDoc_Mail>
    init() {}
}

// Docs/Relations.md, snippet 5 (line 140)
final class RelationsDoc_Member: Model {
    @HasOne(dependent: .destroy) var card: RelationsDoc_Card?
    init() {}
}

// Docs/Relations.md, snippet 5 (line 140)
final class RelationsDoc_Card: Model {
    @Column var number = ""
    @BelongsTo var member: RelationsDoc_Member?      // the foreign key lives on the child
    init() {}
}

// Docs/Relations.md, snippet 6 (line 171)
final class RelationsDoc_League: Model {
    @Column var name = ""
    @HasMany var teams: Children<RelationsDoc_Team>
    @HasManyThrough(\RelationsDoc_League.teams, \RelationsDoc_Team.players) var players: Through<RelationsDoc_Player>
    init() {}
}

// Docs/Relations.md, snippet 6 (line 171)
final class RelationsDoc_Team: Model {
    @BelongsTo var league: RelationsDoc_League?
    @HasMany var players: Children<RelationsDoc_Player>
    init() {}
}

// Docs/Relations.md, snippet 6 (line 171)
final class RelationsDoc_Player: Model {
    @Column var name = ""
    @Column var age = 0
    @BelongsTo var team: RelationsDoc_Team?
    init() {}
}

extension RelationsDoc {
    /// Docs/Relations.md, snippet 1 (line 8).
    static func snippet1(_ context: Context) throws {
        _ = context



    }

    /// Docs/Relations.md, snippet 2 (line 69).
    static func snippet2(_ context: Context) throws {
        _ = context
    }

    /// Docs/Relations.md, snippet 3 (line 91).
    static func snippet3(_ context: Context) throws {
        let todo = context.todo
        let bob = RelationsDoc_Assignee()
        bob.todo = todo                 // sets todo_id; the same parent again does not dirty bob
        show(bob.todo?.name)                  // the assigned parent: no store access
        bob.todo = nil                  // clears todo_id

        let fetched = try RelationsDoc_Assignee.where(\.name == "bob").first()
        show(fetched?.todo)                   // nil: not loaded yet
        let t = try fetched?.load(\.todo)   // reads the parent; store errors are thrown
        show(fetched?.todo?.name)             // the loaded parent, until todo_id changes
        show(bob, fetched, t)
    }

    /// Docs/Relations.md, snippet 4 (line 115).
    static func snippet4(_ context: Context) throws {
        let todo = context.todo
        let erin = context.erin
        try show(todo.assignees.all())
        try show(todo.assignees.where(\.name == "bob").count())
        try show(todo.assignees.where("name").beginsWith("b").order(by: "name").first())
        try show(todo.assignees.query.page(2, per: 20))

        let carol = try todo.assignees.create(["name": "carol"])   // linked and saved
        let dave = try todo.assignees.new(["name": "dave"])        // linked, not saved
        try show(todo.assignees.append(erin))    // sets erin.todo_id and saves erin
        try show(todo.assignees.remove(erin))    // sets erin.todo_id to nil and saves; false if not a child
        show(carol, dave)
    }

    /// Docs/Relations.md, snippet 5 (line 140).
    static func snippet5(_ context: Context) throws {
        let member = context.member
        let newCard = context.newCard

        try show(member.load(\.card))       // reads the card (or eager-load with including(\.card))
        show(member.card)                   // the loaded card, or nil
        member.card = newCard         // staged
        try show(member.save())             // links newCard; destroys the old card (its rule)
    }

    /// Docs/Relations.md, snippet 6 (line 171).
    static func snippet6(_ context: Context) throws {

        let league = try RelationsDoc_League.create(["name": "east"])
        let young = league.players.where(\.age < 20).order(by: \.name)   // no store access yet
        try show(young.all())                                                     // two store queries
        show(league, young)
    }

    /// Docs/Relations.md, snippet 7 (line 211).
    static func snippet7(_ context: Context) throws {
        let todos = try RelationsDoc_Todo.query().including(\.assignees).all()            // 2 store queries
        for todo in todos {
            for a in try todo.assignees.all() { print(a.name) }            // no query
        }

        // nested includes, and shaping the children's query
        let deep = try RelationsDoc_Todo.query()
            .including(\.assignees) { $0.including(\.comments).order(by: "name") }
            .all()                                                          // 3 store queries

        // a parent (one query for all distinct parents) or a has-one
        let assignees = try RelationsDoc_Assignee.query().including(\.todo).all()
        show(assignees.first?.todo?.name)                                         // no query
        show(todos, deep, assignees)
    }
}

@Suite("Docs/Relations.md snippets") struct RelationsDocSnippetTests {
    @Test func snippet1() throws { try privately { try RelationsDoc.withContext { try RelationsDoc.snippet1($0) } } }
    @Test func snippet2() throws { try privately { try RelationsDoc.withContext { try RelationsDoc.snippet2($0) } } }
    @Test func snippet3() throws { try privately { try RelationsDoc.withContext { try RelationsDoc.snippet3($0) } } }
    @Test func snippet4() throws { try privately { try RelationsDoc.withContext { try RelationsDoc.snippet4($0) } } }
    @Test func snippet5() throws { try privately { try RelationsDoc.withContext { try RelationsDoc.snippet5($0) } } }
    @Test func snippet6() throws { try privately { try RelationsDoc.withContext { try RelationsDoc.snippet6($0) } } }
    @Test func snippet7() throws { try privately { try RelationsDoc.withContext { try RelationsDoc.snippet7($0) } } }
}
