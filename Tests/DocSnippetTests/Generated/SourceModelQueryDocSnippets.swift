// Generated from the `///` comments of Sources/ModelQuery by Scripts/doc-snippets.py: do not edit;
// edit the comments and rerun. Compiled, not run.
// swift-format-ignore-file

@testable import ModelQuery
import ArrayAdapter
import FileAdapter
import Foundation
import PostgresAdapter
import RESTAdapter
import SQLiteAdapter
import Testing

// Sources/ModelQuery/Builder/Query.swift, snippet 2
extension SourceDoc_Person {
    static let seasoned = SourceDoc_Person.where(\.age >= 40)
    static func livingIn(_ city: String) -> Query<SourceDoc_Person> { SourceDoc_Person.where(\.city == city) }
}

// Sources/ModelQuery/Relations/BelongsTo.swift, snippet 1
final class ModelQueryBelongsTo_Assignee: Model {
    @Column var name = ""
    @BelongsTo var todo: SourceDoc_Todo?          // column "todo_id" (Int64? for Todo's Int64 ids)
    @BelongsTo("owner_uuid") var owner: SourceDoc_User?
    init() {}
}

// Sources/ModelQuery/Relations/HasMany.swift, snippet 1
final class ModelQueryHasMany_Todo: Model {
    @Column var name = ""
    @HasMany(dependent: .destroy) var assignees: Children<ModelQueryHasMany_Assignee>
    init() {}
}

// Sources/ModelQuery/Relations/HasMany.swift, snippet 1
final class ModelQueryHasMany_Assignee: Model {
    @Column var name = ""
    @BelongsTo var todo: ModelQueryHasMany_Todo?
    init() {}
}

// Sources/ModelQuery/Relations/HasManyThrough.swift, snippet 1
final class ModelQueryHasManyThrough_League: Model {
    @HasMany var teams: Children<SourceDoc_Team>
    @HasManyThrough(\ModelQueryHasManyThrough_League.teams, \SourceDoc_Team.players) var players: Through<SourceDoc_Player>
    init() {}
}

// Sources/ModelQuery/Relations/HasManyThrough.swift, snippet 1
final class ModelQueryHasManyThrough_Student: Model {
    @HasMany(dependent: .delete) var enrollments: Children<SourceDoc_Enrollment>
    @HasManyThrough(\ModelQueryHasManyThrough_Student.enrollments, \SourceDoc_Enrollment.course) var courses: Through<SourceDoc_Course>
    init() {}
}

// Sources/ModelQuery/Relations/HasOne.swift, snippet 1
final class ModelQueryHasOne_User: Model {
    @HasOne(dependent: .destroy) var profile: SourceDoc_Profile?
    init() {}
}

extension SourceModelQueryDoc {
    /// Sources/ModelQuery/Builder/ColumnCondition+SwiftValues.swift, snippet 1.
    static func ColumnConditionSwiftValues1(_ given: Context) throws {
        let name = "Ann", since: Date = .now
        try show(SourceDoc_Person.where("name").eq(name).where("joined").gte(since).all())
        try show(SourceDoc_Person.where("age").in([30, 41]).all())           // literals still work as before
        show(name)
    }

    /// Sources/ModelQuery/Builder/ColumnCondition.swift, snippet 1.
    static func ColumnCondition1(_ given: Context) throws {
        show(SourceDoc_Todo.where("assigned_to").eq("bob").and("location").contains("seattle"))
        show(SourceDoc_Todo.where("priority").between(1, 3).or("done").eq(true))
        show(SourceDoc_Todo.where("name").not.beginsWith("tmp"))
    }

    /// Sources/ModelQuery/Builder/Model+Query.swift, snippet 1.
    static func ModelQuery1(_ given: Context) throws {
        try show(SourceDoc_Todo.query().order(by: "due_date").limit(10).all())
    }

    /// Sources/ModelQuery/Builder/Model+Query.swift, snippet 2.
    static func ModelQuery2(_ given: Context) throws {
        let dogs = try SourceDoc_Todo.find { $0.name.contains("dog") }
        show(dogs)
    }

    /// Sources/ModelQuery/Builder/Query+Aggregates.swift, snippet 1.
    static func QueryAggregates1(_ given: Context) throws {
        try show(SourceDoc_Person.where(\.city == "Paris").sum(\.score))     // Double?
    }

    /// Sources/ModelQuery/Builder/Query+Aggregates.swift, snippet 2.
    static func QueryAggregates2(_ given: Context) throws {
        try show(SourceDoc_Person.query().sum(\.bonus))      // bonus: Double? → Double?
    }

    /// Sources/ModelQuery/Builder/Query+Aggregates.swift, snippet 3.
    static func QueryAggregates3(_ given: Context) throws {
        try show(SourceDoc_Person.query().group(by: "city").count())      // [AggregateGroup]: key → count
        try show(SourceDoc_Person.query().group(by: "city").sum("score"))
    }

    /// Sources/ModelQuery/Builder/Query+Async.swift, snippet 1.
    static func QueryAsync1(_ given: Context) async throws {
        let open = try await SourceDoc_Todo.where(\.done == false).order(by: \.due).all()
        let total = try await SourceDoc_Todo.query().count()
        show(open, total)
    }

    /// Sources/ModelQuery/Builder/Query+Batch.swift, snippet 1.
    static func QueryBatch1(_ given: Context) throws {
        try show(SourceDoc_Todo.where("done").eq(true).updateAll(["archived": true]))
    }

    /// Sources/ModelQuery/Builder/Query+Fetching.swift, snippet 1.
    static func QueryFetching1(_ given: Context) throws {
        let page = try SourceDoc_Todo.query().order(by: "name").page(2, per: 20)
        show(page.items.count)       // up to 20
        show(page.total)             // every match
        show(page.pageCount)
        show(page.hasNext)
        show(page)
    }

    /// Sources/ModelQuery/Builder/Query+SwiftValues.swift, snippet 1.
    static func QuerySwiftValues1(_ given: Context) throws {
        let level = given.level
        let cutoff = Date.now
        try show(SourceDoc_Chore.where(\.due < cutoff).updateAll(\.done, to: true))
        try show(SourceDoc_Chore.query().updateAll([\.done: false, \.priority: 1]))
        try show(SourceDoc_Chore.query().updateAll(["priority": level]))            // level: Int
        try show(SourceDoc_Person.query().group(by: \.city).count())
        show(cutoff)
    }

    /// Sources/ModelQuery/Builder/Query+SwiftValues.swift, snippet 2.
    static func QuerySwiftValues2(_ given: Context) throws {
        try show(SourceDoc_Person.query().group(by: \.city).sum("score"))
    }

    /// Sources/ModelQuery/Builder/Query.swift, snippet 1.
    static func Query1(_ given: Context) throws {
        let todos = try SourceDoc_Todo.where("assigned_to").eq("bob").and("location").contains("seattle").all()
        let top = try SourceDoc_Person.where(.between(\.age, 30, 40) && \.city == "Paris")
            .order(by: \.score, .descending)
            .limit(100)
            .all()
        show(todos, top)
    }

    /// Sources/ModelQuery/Builder/Query.swift, snippet 2.
    static func Query2(_ given: Context) throws {
        try show(SourceDoc_Person.seasoned.merging(SourceDoc_Person.livingIn("Paris")).count())
    }

    /// Sources/ModelQuery/Builder/Query.swift, snippet 3.
    static func Query3(_ given: Context) throws {
        try show(SourceDoc_Todo.where(\.done == false).filter { $0.name.contains("dog") }.all())
    }

    /// Sources/ModelQuery/Builder/Query.swift, snippet 4.
    static func Query4(_ given: Context) throws {
        // inside a transaction: ten open todos no other worker holds, locked until it ends
        let batch = try SourceDoc_Todo.where(\.done == false).lockForUpdate(.skipLocked).limit(10).all()
        show(batch)
    }

    /// Sources/ModelQuery/Builder/QueryCondition.swift, snippet 1.
    static func QueryCondition1(_ given: Context) throws {
        show(SourceDoc_Person.where(\.age > 30 && \.city == "Paris"))
        show(SourceDoc_Person.where(.between(\.age, 30, 40) || .contains(\.name, "ann", caseInsensitive: true)))
        show(SourceDoc_Person.where(!(\.email == nil)))
    }

    /// Sources/ModelQuery/Context/ModelContext+File.swift, snippet 1.
    static func ModelContextFile1(_ given: Context) throws {
        let context = given.context
        let draftsURL = given.draftsURL
        try show(context.write(to: draftsURL))
        let restored = try ModelContext(contentsOf: draftsURL, models: [SourceDoc_Todo.self, SourceDoc_Assignee.self])
        try show(restored.save())          // writes what was pending when the file was written
        show(restored)
    }

    /// Sources/ModelQuery/Context/ModelContext+Scope.swift, snippet 1.
    static func ModelContextScope1(_ given: Context) throws {
        try show(ModelContext.withTemporary { scratch in   // pushed
            let todo = try SourceDoc_Todo.find(1)!
            todo.name = "draft"                        // never saved: discarded on pop
        })
    }

    /// Sources/ModelQuery/Context/ModelContext.swift, snippet 1.
    static func ModelContext1(_ given: Context) throws {
        let context = ModelContext()
        try show(context.run {
            let a = try SourceDoc_Todo.find(1)
            let b = try SourceDoc_Todo.where(\.name == "walk").first()
            print(a === b)               // true: one instance per record
            a?.name = "run"
            try context.save()           // every change, in one store transaction
        })
        show(context)
    }

    /// Sources/ModelQuery/Observation/QueryObservation.swift, snippet 1.
    static func QueryObservation1(_ given: Context) async throws {
        for try await todos in SourceDoc_Todo.where(\.done == false).order(by: \.due).values() {
            SourceDoc_render(todos)                 // now, and after each relevant commit
        }
    }

    /// Sources/ModelQuery/Observation/QueryObservation.swift, snippet 2.
    static func QueryObservation2(_ given: Context) async throws {
        for try await open in SourceDoc_Todo.where(\.done == false).observe({ try $0.count() }) {
            SourceDoc_updateBadge(open)
        }
    }

    /// Sources/ModelQuery/Relations/BelongsTo.swift, snippet 1.
    static func BelongsTo1(_ given: Context) throws {
        let todo = given.todo
        let assignee = given.assignee

        assignee.todo = todo                  // sets todo_id (same parent again: not dirty)
        show(assignee.todo?.name)                   // the assigned parent, no store access
        try show(assignee.load(\.todo))             // reads the parent from the store
        assignee.todo = nil                   // clears todo_id
    }

    /// Sources/ModelQuery/Relations/HasMany.swift, snippet 1.
    static func HasMany1(_ given: Context) throws {
        let todo = given.todo
        let carol = given.carol

        try show(todo.assignees.create(["name": "bob"]))
        try show(todo.assignees.where(\.name == "bob").count())
        try show(todo.assignees.append(carol))          // sets carol.todo and saves her
    }

    /// Sources/ModelQuery/Relations/HasManyThrough.swift, snippet 1.
    static func HasManyThrough1(_ given: Context) throws {
        let league = given.league
        let student = given.student

        try show(league.players.where(\.age < 20).count())
        try show(student.courses.all())
    }

    /// Sources/ModelQuery/Relations/HasManyThrough.swift, snippet 2.
    static func HasManyThrough2(_ given: Context) throws {
        let league = given.league
        try show(league.players.where(\.age < 20).order(by: \.name).all())
    }

    /// Sources/ModelQuery/Relations/HasOne.swift, snippet 1.
    static func HasOne1(_ given: Context) throws {
        let user = given.user
        let newProfile = given.newProfile

        try show(user.load(\.profile))     // reads the profile from the store (or eager-load it
                                     // with `User.query().including(\.profile)`)
        show(user.profile)                 // the loaded or assigned profile, no store access
        user.profile = newProfile    // staged: the next `try user.save()` links newProfile and
                                     // nullifies, deletes or destroys the old one (per `dependent`)
        try show(user.save())
    }

    /// Sources/ModelQuery/Relations/Model+Load.swift, snippet 1.
    static func ModelLoad1(_ given: Context) throws {
        let assignee = given.assignee
        let user = given.user
        let todo = try assignee.load(\.todo)                      // one query; then assignee.todo
        let profile = try user.load(\.profile)
        let todos = try SourceDoc_Todo.query().including(\.assignees).all()  // 2 queries for all todos
        show(todo, profile, todos)
    }

    /// Sources/ModelQuery/Relations/Query+Including.swift, snippet 1.
    static func QueryIncluding1(_ given: Context) throws {
        let todos = try SourceDoc_Todo.query().including(\.assignees).all()          // 2 store queries
        let deep = try SourceDoc_Todo.query().including(\.assignees) { $0.including(\.comments) }.all()
        show(todos, deep)
    }
}
