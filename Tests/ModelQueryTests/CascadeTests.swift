import ArrayAdapter
import Foundation
import Testing

@Suite struct CascadeTests {
    /// board → assignees (.destroy) → comments (.delete)
    func seedBoard() throws -> Board {
        let board = try Board.create(["title": "sprint"])
        for name in ["ann", "bob"] {
            let assignee = try board.assignees.create(["name": .string(name)])
            try assignee.comments.create(["body": .string("hi from \(name)")])
            try assignee.comments.create(["body": .string("bye from \(name)")])
        }
        try Board.create(["title": "other"]).assignees.create(["name": "cy"])
        return board
    }

    @Test func deleteIgnoresRelationsDestroyCascades() throws {
        try withStore { (_: ArrayAdapter) throws in
            let board = try seedBoard()
            #expect(try board.delete())
            #expect(try Assignee.count() == 3 && Comment.count() == 4)  // orphans left by delete()
            try board.save()  // back again (same id)
            #expect(try board.destroy())
            #expect(try Board.count() == 1)
            #expect(try Assignee.query().pluck(\.name) == ["cy"])
            #expect(try Comment.count() == 0)  // deleted with their assignees (.delete)
        }
    }

    @Test func nullifyClearsForeignKeys() throws {
        try withStore { (_: ArrayAdapter) throws in
            let project = try Project.create(["name": "apollo"])
            try project.issues.create(["title": "a"])
            try project.issues.create(["title": "b"])
            #expect(try project.destroy())
            #expect(try Issue.count() == 2)
            #expect(try Issue.where("project_id").isNull().count() == 2)
        }
    }

    @Test func restrictRefusesWhileChildrenExist() throws {
        try withStore { (_: ArrayAdapter) throws in
            let nation = Nation()
            nation.id = "fr"
            try nation.save()
            let paris = try nation.towns.create(["name": "Paris"])
            let error = try #require(throws: ModelError.self) { try nation.destroy() }
            #expect(error.kind == .restricted && error.message.contains("1 Town"))
            #expect(try Nation.count() == 1 && !nation.isNew)
            try paris.delete()
            #expect(try nation.destroy())
            #expect(try Nation.count() == 0)
        }
    }

    @Test func aFailedCascadeRollsBackEverything() throws {
        try withStore { (_: ArrayAdapter) throws in
            let board = try seedBoard()
            let bob = try #require(try board.assignees.where(\.name == "bob").first())
            bob.vetoDestroy = true
            try bob.save()
            let error = try #require(throws: ModelError.self) { try board.destroy() }
            #expect(error.kind == .cancelled)
            #expect(try Board.count() == 2 && Assignee.count() == 3 && Comment.count() == 4)
            #expect(!board.isNew)
        }
    }

    @Test func cyclesTerminate() throws {
        try withStore { (_: ArrayAdapter) throws in
            let a = try Node.create(["label": "a"]), b = try Node.create(["label": "b"])
            let c = try b.children.create(["label": "c"])
            a.parent = b
            try a.save()
            b.parent = a  // a → b → a
            try b.save()
            #expect(try a.destroy())
            #expect(try Node.count() == 0)
            #expect(c.isNew == false)  // the in-memory copy is untouched; the row is gone
            #expect(try Node.find(#require(c.id)) == nil)
        }
    }

    @Test func destroyAllAppliesTheRulesAndDeleteAllDoesNot() throws {
        try withStore { (_: ArrayAdapter) throws in
            _ = try seedBoard()
            #expect(try Board.destroyAll() == 2)
            #expect(try Assignee.count() == 0 && Comment.count() == 0)
            _ = try seedBoard()
            #expect(try Board.deleteAll() == 2)
            #expect(try Assignee.count() == 3)
        }
    }

    @Test func manyToManyJoinRowsGoWithEitherSide() throws {
        try withStore { (_: ArrayAdapter) throws in
            let ann = try Student.create(["name": "ann"])
            let math = try Course.create(["title": "math"])
            let art = try Course.create(["title": "art"])
            for course in [math, art] {
                let enrollment = try ann.enrollments.new()
                enrollment.course = course
                try enrollment.save()
            }
            #expect(try math.destroy())  // .destroy on enrollments
            #expect(try ann.courses.all().map(\.title) == ["art"])
            #expect(try ann.destroy())  // .delete on enrollments
            #expect(try Enrollment.count() == 0 && Course.count() == 1)
        }
    }

    @Test func hasOneRestrictAndDestroyOnReplacementRollBack() throws {
        try withStore { (_: ArrayAdapter) throws in
            let member = try Member.create(["name": "ann"])
            let card = Card()
            card.number = "1"
            member.card = card
            try member.save()
            #expect(try member.destroy())
            #expect(try Card.count() == 0)  // .destroy
        }
    }
}

@Suite struct EagerLoadingTests {
    @Test func includingLoadsChildrenInOneQueryPerRelation() throws {
        let spy = SpyAdapter(ArrayAdapter())
        try ModelStore.using(spy) {
            for title in ["a", "b", "c"] {
                let board = try Board.create(["title": .string(title)])
                for k in 0..<2 {
                    let assignee = try board.assignees.create(["name": .string("\(title)\(k)")])
                    try assignee.comments.create(["body": "x"])
                }
            }
            try Board.create(["title": "empty"])
            spy.calls.withLock { $0 = [] }

            let boards = try Board.query().including(\.assignees) { $0.including(\.comments) }.all()
            #expect(spy.calls.withLock { $0 } == ["fetch", "fetch", "fetch"])  // boards, assignees, comments
            #expect(try boards.map { try $0.assignees.count() } == [2, 2, 2, 0])
            #expect(try boards[1].assignees.all().map(\.name) == ["b0", "b1"])
            #expect(try boards[0].assignees.all().map { try $0.comments.count() } == [1, 1])
            #expect(spy.calls.withLock { $0 }.count == 3)  // all answered from memory

            // a chained query still goes to the store
            _ = try boards[0].assignees.where(\.name == "a1").count()
            #expect(spy.calls.withLock { $0 }.count == 4)

            spy.calls.withLock { $0 = [] }
            let assignees = try Assignee.query().including(\.board).all()
            #expect(spy.calls.withLock { $0 } == ["fetch", "fetch"])
            #expect(assignees.map { $0.board?.title ?? "-" } == ["a", "a", "b", "b", "c", "c"])
            #expect(spy.calls.withLock { $0 }.count == 2)
        }
    }

    @Test func includingAHasOne() throws {
        try withStore { (_: ArrayAdapter) throws in
            for name in ["ann", "bob"] {
                let member = try Member.create(["name": .string(name)])
                let card = Card()
                card.number = name.uppercased()
                member.card = card
                try member.save()
            }
            let members = try Member.query().including(\.card).all()
            #expect(members.map { $0.card?.number ?? "-" } == ["ANN", "BOB"])
        }
    }
}
