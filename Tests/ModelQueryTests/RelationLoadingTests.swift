import ArrayAdapter
import Foundation
import TestSupport
import Testing

/// An adapter whose reads can be made to fail (a store that is down).
final class FlakyAdapter: ForwardingAdapter, @unchecked Sendable {  // `failing` is a Locked
    let failing = Locked(false)
    struct Down: Error {}
    private func check() throws { if failing.withLock({ $0 }) { throw Down() } }
    override func find(id: ModelValue, in schema: ModelSchema) throws -> [ModelValue]? {
        try check()
        return try super.find(id: id, in: schema)
    }
    override func fetch(_ query: StoreQuery) throws -> [[ModelValue]] {
        try check()
        return try super.fetch(query)
    }
    override func count(_ query: StoreQuery) throws -> Int {
        try check()
        return try super.count(query)
    }
}

/// Relation access: properties never touch the store; `load(_:)` and `including(_:)` do,
/// and their errors are thrown, never turned into nil.
@Suite struct RelationLoadingTests {
    @Test func propertiesNeverQueryTheStore() throws {
        let spy = SpyAdapter(ArrayAdapter())
        try ModelStore.using(spy) {
            let board = try Board.create(["title": "sprint"])
            try board.assignees.create(["name": "bob"])
            let member = try Member.create(["name": "ann"])
            let card = Card()
            card.number = "1"
            member.card = card
            try member.save()
            let league = try League.create(["name": "east"])
            let bob = try #require(try Assignee.where(\.name == "bob").first())
            let fetchedMember = try #require(try Member.find(member.id ?? 0))
            spy.calls.withLock { $0 = [] }
            #expect(bob.board == nil)  // not loaded
            #expect(fetchedMember.card == nil)  // not loaded
            _ = board.assignees.where(\.name == "bob")
            _ = league.players.where(\.name == "x").order(by: \.name).limit(3)
            #expect(spy.calls.withLock { $0 }.isEmpty)
            #expect(try league.players.where(\.name == "x").count() == 0)
            #expect(spy.calls.withLock { $0 } == ["fetch", "count"])  // through: keys, then targets
        }
    }

    @Test func loadErrorsAreThrownNotTurnedIntoNil() throws {
        let store = FlakyAdapter()
        try ModelStore.using(store) {
            let board = try Board.create(["title": "sprint"])
            let assignee = try board.assignees.create(["name": "bob"])
            let member = try Member.create(["name": "ann"])
            let fetched = try #require(try Assignee.find(assignee.id ?? 0))
            let fetchedMember = try #require(try Member.find(member.id ?? 0))
            store.failing.withLock { $0 = true }
            #expect(throws: FlakyAdapter.Down.self) { try fetched.load(\.board) }
            #expect(throws: FlakyAdapter.Down.self) { try fetchedMember.load(\.card) }
            #expect(throws: FlakyAdapter.Down.self) { try board.load(\.assignees) }
            #expect(throws: FlakyAdapter.Down.self) { try Assignee.query().including(\.board).all() }
            #expect(try fetched.board == nil && !fetched.isLoaded(\.board))  // a failure loads nothing
            store.failing.withLock { $0 = false }
            #expect(try fetched.load(\.board)?.title == "sprint")
        }
    }

    @Test func isLoadedTellsNotLoadedFromNone() throws {
        try withStore { (_: ArrayAdapter) throws in
            let board = try Board.create(["title": "sprint"])
            let orphan = try Assignee.create(["name": "orphan"])
            #expect(try orphan.isLoaded(\.board))  // a nil foreign key needs no load
            let bob = try board.assignees.create(["name": "bob"])
            let fetched = try #require(try Assignee.find(bob.id ?? 0))
            #expect(!(try fetched.isLoaded(\.board)))
            try fetched.load(\.board)
            #expect(try fetched.isLoaded(\.board))
            try fetched.set("board_id", to: 999)  // another key: the loaded parent no longer answers
            #expect(try !fetched.isLoaded(\.board) && fetched.board == nil)
            #expect(try fetched.load(\.board) == nil)  // no such board
            #expect(try fetched.isLoaded(\.board))
            let fetchedBoard = try #require(try Board.find(board.id ?? 0))
            #expect(!fetchedBoard.isLoaded(\.assignees) && fetchedBoard.assignees.loaded == nil)
            try fetchedBoard.load(\.assignees)
            #expect(fetchedBoard.isLoaded(\.assignees) && fetchedBoard.assignees.loaded?.map(\.name) == ["bob"])
            #expect(fetchedBoard.assignees.loaded?.first?.board === fetchedBoard)  // inverse linked
            #expect(throws: QueryError.self) { try fetched.isLoaded(\.notARelation) }
        }
    }

    @Test func twoHasOneOfOneTypeResolveByKeyPath() throws {
        try withStore { (_: ArrayAdapter) throws in
            let match = try Match.create(["title": "final"])
            let home = Seat(), away = Seat()
            home.label = "home"
            away.label = "away"
            match.homeSeat = home
            match.awaySeat = away
            try match.save()
            let fetched = try #require(try Match.find(match.id ?? 0))
            #expect(try fetched.load(\.homeSeat)?.label == "home")
            #expect(try fetched.load(\.awaySeat)?.label == "away")
            let eager = try Match.query().including(\.awaySeat).including(\.homeSeat).all()
            #expect(eager.first?.homeSeat?.label == "home" && eager.first?.awaySeat?.label == "away")
        }
    }

    @Test func reloadDiscardsAStagedHasOne() throws {
        try withStore { (_: ArrayAdapter) throws in
            let member = try Member.create(["name": "ann"])
            let card = Card()
            card.number = "9"
            member.card = card
            try member.reload()
            #expect(member.card == nil)
            try member.save()
            #expect(try Card.count() == 0)  // the discarded assignment was not written
        }
    }

    @Test func childrenReachedThroughTheOwnerKnowIt() throws {
        try withStore { (_: ArrayAdapter) throws in
            let board = try Board.create(["title": "sprint"])
            try board.assignees.create(["name": "bob"])
            let fetched = try #require(try Board.find(board.id ?? 0))
            #expect(try fetched.assignees.all().first?.board === fetched)
            #expect(try fetched.assignees.first()?.board === fetched)
            let draft = try fetched.assignees.new(["name": "dee"])
            #expect(try draft.board === fetched && draft["board_id"] == fetched.id.modelValue)
        }
    }

    @Test func childrenHoldTheirOwnerWeaklySoLoadingMakesNoCycle() throws {
        try withStore { (_: ArrayAdapter) throws in
            let board = try Board.create(["title": "sprint"])
            try board.assignees.create(["name": "bob"])
            weak var weakBoard: Board?
            weak var weakChild: Assignee?
            do {
                let boards = try Board.query().including(\.assignees).all()
                weakBoard = boards.first
                weakChild = boards.first?.assignees.loaded?.first
                #expect(weakChild?.board === weakBoard && weakBoard != nil)
            }
            #expect(weakBoard == nil && weakChild == nil)  // freed: no owner ⇄ child cycle
            // A child kept alone outlives its owner: its parent then has to be loaded.
            let kept = try #require(try Board.query().including(\.assignees).all().first?.assignees.loaded?.first)
            #expect(kept.board == nil)
            #expect(try kept.load(\.board)?.title == "sprint")
        }
    }

    @Test func anEagerLoadedParentLivesAsLongAsItsChild() throws {
        try withStore { (_: ArrayAdapter) throws in
            let board = try Board.create(["title": "sprint"])
            try board.assignees.create(["name": "bob"])
            weak var weakBoard: Board?
            let child = try #require(try Assignee.query().including(\.board).all().first)
            weakBoard = child.board
            #expect(weakBoard?.title == "sprint")  // nothing but the child holds it
            child.board = nil
            #expect(weakBoard == nil && child.board == nil)
        }
    }

    @Test func reloadForgetsALoadedParent() throws {
        try withStore { (_: ArrayAdapter) throws in
            let board = try Board.create(["title": "sprint"])
            let child = try board.assignees.create(["name": "bob"])
            let fetched = try #require(try Assignee.query().including(\.board).all().first)
            #expect(try fetched.isLoaded(\.board))
            try fetched.reload()
            #expect(try !fetched.isLoaded(\.board) && fetched.board == nil)
            #expect(try fetched.load(\.board)?.id == board.id && child.id == fetched.id)
        }
    }

    @Test func parentsOfTwoRelationsAndTheOwnerAnswerTogether() throws {
        try withStore { (_: ArrayAdapter) throws in
            let student = try Student.create(["name": "ann"])
            let course = try Course.create(["title": "maths"])
            let enrollment = Enrollment()
            enrollment.student = student
            enrollment.course = course
            try enrollment.save()
            // Both parents loaded: one inline, one in the record's extras.
            let both = try #require(try Enrollment.query().including(\.student).including(\.course).all().first)
            #expect(both.student?.name == "ann" && both.course?.title == "maths")
            // Reached through the course, then the student loaded: each keeps answering.
            let courses = try Course.query().including(\.enrollments).all()  // held: children hold owners weakly
            let fromCourse = try #require(courses.first?.enrollments.loaded?.first)
            #expect(fromCourse.course?.title == "maths" && fromCourse.student == nil)
            #expect(try fromCourse.load(\.student)?.name == "ann")
            #expect(fromCourse.course?.title == "maths" && fromCourse.student?.name == "ann")
            // The student loaded first, then the record linked to an owner at the other key.
            let loadedFirst = try #require(try Enrollment.query().including(\.student).all().first)
            try course.enrollments.append(loadedFirst)
            #expect(loadedFirst.student?.name == "ann" && loadedFirst.course === course)
            // A changed key stops answering for the parent loaded for the old one.
            let other = try Student.create(["name": "cy"])
            try loadedFirst.set("student_id", to: other.id.modelValue)
            #expect(loadedFirst.student == nil)
            #expect(try !loadedFirst.isLoaded(\.student))
        }
    }
}

extension Assignee {
    /// A computed property of a model type: not a relation.
    var notARelation: Board? { nil }
}
