import ArrayAdapter
import Foundation
import Testing

@Suite struct RelationTests {
    @Test func belongsToAddsATypedIndexedForeignKey() throws {
        let fk = try #require(Assignee.schema.column(named: "board_id"))
        #expect(fk.type == .int && fk.isOptional && fk.options.contains(.indexed))
        #expect(Issue.schema.column(named: "project_id")?.type == .uuid)
        #expect(Town.schema.column(named: "nation_id")?.type == .string)
        let relation = try #require(try Board.schema.relation(named: "assignees"))
        #expect(relation.kind == .hasMany && relation.target === Assignee.schema && relation.rule == .destroy)
        #expect(relation.foreignKey == Assignee.schema.index(ofColumn: "board_id"))
        #expect(try Assignee.schema.relation(named: "board")?.kind == .belongsTo)
    }

    @Test func hasManyIsAScopedQuery() throws {
        try withStore { (_: ArrayAdapter) throws in
            let board = try Board.create(["title": "sprint"])
            let other = try Board.create(["title": "backlog"])
            try board.assignees.create(["name": "bob"])
            try board.assignees.create(["name": "ann"])
            try other.assignees.create(["name": "cy"])
            #expect(try board.assignees.count() == 2)
            #expect(try board.assignees.order(by: \.name).all().map(\.name) == ["ann", "bob"])
            #expect(try board.assignees.where(\.name == "bob").count() == 1)
            #expect(try board.assignees.where("name").beginsWith("a").pluck(\.name) == ["ann"])
            #expect(try board.assignees.query.order(by: "name", .descending).first()?.name == "bob")
            let draft = try board.assignees.new(["name": "dee"])
            #expect(draft.isNew && draft.board?.title == "sprint")
            #expect(try Board().assignees.count() == 0)  // unsaved owner: no children
            #expect(throws: QueryError.self) { try Board().assignees.create(["name": "x"]) }
        }
    }

    @Test func belongsToLoadsAssignsAndDoesNotDirtyOnTheSameParent() throws {
        try withStore { (_: ArrayAdapter) throws in
            let board = try Board.create(["title": "sprint"])
            let assignee = try Assignee.create(["name": "bob"])
            #expect(assignee.board == nil)
            assignee.board = board
            #expect(assignee.isDirty && assignee.changes["board_id"]?.new == board.id.modelValue)
            try assignee.save()
            let assigneeID = try #require(assignee.id)
            let loaded = try #require(try Assignee.find(assigneeID))
            #expect(try loaded.board == nil && !loaded.isLoaded(\.board))  // not loaded: no query
            #expect(try loaded.load(\.board)?.id == board.id)
            #expect(try loaded.board?.title == "sprint" && loaded.isLoaded(\.board))
            loaded.board = board
            #expect(!loaded.isDirty)
            loaded.board = nil
            #expect(loaded.isDirty)
            // a parent assigned before it is saved is linked when the child is saved
            let fresh = Board()
            fresh.title = "new"
            let child = Assignee()
            child.name = "zed"
            child.board = fresh
            #expect(throws: ModelError.self) { try child.save() }
            #expect(try Assignee.count() == 1)
            try fresh.save()
            try child.save()
            #expect(try fresh.assignees.all().map(\.name) == ["zed"])
        }
    }

    @Test func movingAChildUpdatesBothSidesAndRemoveNullifies() throws {
        try withStore { (_: ArrayAdapter) throws in
            let a = try Board.create(["title": "a"]), b = try Board.create(["title": "b"])
            let bob = try a.assignees.create(["name": "bob"])
            try b.assignees.append(bob)
            #expect(try a.assignees.count() == 0 && b.assignees.count() == 1)
            #expect(bob.board?.title == "b" && !bob.isDirty)
            #expect(try a.assignees.remove(bob) == false)  // not a's
            #expect(try b.assignees.remove(bob))
            #expect(bob.board == nil)
            #expect(try b.assignees.count() == 0 && Assignee.count() == 1)
        }
    }

    @Test func idsOfEveryTypeLinkChildren() throws {
        try withStore { (_: ArrayAdapter) throws in
            let project = try Project.create(["name": "apollo"])
            try project.issues.create(["title": "fuel"])
            #expect(try project.issues.all().first?.project?.name == "apollo")
            let nation = Nation()
            nation.id = "fr"
            nation.name = "France"
            try nation.save()
            try nation.towns.create(["name": "Paris"])
            #expect(try Town.where("nation_id").eq("fr").count() == 1)
            #expect(try nation.towns.first()?.nation?.name == "France")
        }
    }

    @Test func hasOneReturnsReplacesAndAppliesItsRule() throws {
        try withStore { (_: ArrayAdapter) throws in
            let member = try Member.create(["name": "ann"])
            #expect(member.card == nil)
            let first = Card()
            first.number = "1"
            member.card = first
            #expect(member.card === first && first.isNew)  // staged
            try member.save()
            #expect(!first.isNew && first.member?.name == "ann")
            let memberID = try #require(member.id)
            let reloaded = try #require(try Member.find(memberID))
            #expect(reloaded.card == nil)  // not loaded
            #expect(try reloaded.load(\.card)?.number == "1")
            #expect(reloaded.card?.number == "1")
            let second = Card()
            second.number = "2"
            reloaded.card = second
            try reloaded.save()  // .destroy: the old card is gone
            #expect(try Card.query().pluck(\.number) == ["2"])
            #expect(reloaded.card?.number == "2")
            // nullify
            let locker = Locker()
            locker.code = "A"
            reloaded.locker = locker
            try reloaded.save()
            let other = Locker()
            other.code = "B"
            reloaded.locker = other
            try reloaded.save()
            #expect(try Locker.query().count() == 2)
            #expect(try Locker.where(\.code == "A").first()?.load(\.member) == nil)
            #expect(try Member.find(memberID)?.load(\.locker)?.code == "B")
        }
    }

    @Test func throughRelations() throws {
        try withStore { (_: ArrayAdapter) throws in
            let league = try League.create(["name": "east"])
            let red = try league.teams.create(["name": "red"]), blue = try league.teams.create(["name": "blue"])
            try Team.create(["name": "elsewhere"]).players.create(["name": "zed", "age": 30])
            try red.players.create(["name": "ann", "age": 19])
            try blue.players.create(["name": "bob", "age": 25])
            try blue.players.create(["name": "cy", "age": 17])
            #expect(try league.players.all().map(\.name) == ["ann", "bob", "cy"])
            #expect(try league.players.where(\.age < 20).count() == 2)
            #expect(try league.players.query().order(by: \.age).first()?.name == "cy")

            let ann = try Student.create(["name": "ann"]), bob = try Student.create(["name": "bob"])
            let math = try Course.create(["title": "math"]), art = try Course.create(["title": "art"])
            for (student, course) in [(ann, math), (ann, art), (bob, art)] {
                let enrollment = try student.enrollments.new()
                enrollment.course = course
                try enrollment.save()
            }
            #expect(try ann.courses.all().map(\.title) == ["math", "art"])
            #expect(try bob.courses.all().map(\.title) == ["art"])
            #expect(try Student().courses.count() == 0)
            let relation = try #require(try League.schema.relation(named: "players"))
            #expect(relation.kind == .hasManyThrough && relation.target === Player.schema)
        }
    }

    @Test func inversesAreFoundFromDeclarationsOrRejected() throws {
        try withStore { (_: ArrayAdapter) throws in
            let ann = try Correspondent.create(["name": "ann"]), bob = try Correspondent.create(["name": "bob"])
            let mail = Mail()
            mail.subject = "hi"
            mail.sender = ann
            mail.recipient = bob
            try mail.save()
            #expect(try ann.sent.count() == 1 && ann.received.count() == 0 && bob.received.count() == 1)

            let ambiguous = try #require(throws: SchemaError.self) { try AmbiguousCorrespondent.schema.relations() }
            #expect(ambiguous.kind == .invalidRelation && ambiguous.reason.contains("several"))
            #expect(throws: SchemaError.self) { try AmbiguousCorrespondent.create(["name": "x"]) }
            let missing = try #require(throws: SchemaError.self) { try Lonely.schema.relations() }
            #expect(missing.reason.contains("no @BelongsTo to Lonely"))
        }
    }
}
