import ArrayAdapter
import Foundation

// Int ids: a task has assignees (destroyed with it); assignees have comments (deleted).
final class Board: Model {
    @Column var title: String = ""
    @HasMany(dependent: .destroy) var assignees: Children<Assignee>
    init() {}
}

final class Assignee: Model {
    @Column var name: String = ""
    @Column var vetoDestroy: Bool = false
    @BelongsTo var board: Board?
    @HasMany(dependent: .delete) var comments: Children<Comment>
    init() {}
    func beforeDestroy() throws -> Bool { !vetoDestroy }
}

final class Comment: Model {
    @Column var body: String = ""
    @BelongsTo var assignee: Assignee?
    init() {}
}

// UUID ids, nullify.
final class Project: Model {
    typealias IDValue = UUID
    @Column var name: String = ""
    @HasMany var issues: Children<Issue>  // .nullify by default
    init() {}
}

final class Issue: Model {
    typealias IDValue = UUID
    @Column var title: String = ""
    @BelongsTo var project: Project?
    init() {}
}

// String ids, restrict.
final class Nation: Model {
    typealias IDValue = String
    @Column var name: String = ""
    @HasMany(dependent: .restrict) var towns: Children<Town>
    init() {}
}

final class Town: Model {
    @Column var name: String = ""
    @BelongsTo var nation: Nation?
    init() {}
}

// hasOne.
final class Member: Model {
    @Column var name: String = ""
    @HasOne(dependent: .destroy) var card: Card?
    @HasOne var locker: Locker?  // nullify
    init() {}
}

final class Card: Model {
    @Column var number: String = ""
    @BelongsTo var member: Member?
    init() {}
}

final class Locker: Model {
    @Column var code: String = ""
    @BelongsTo var member: Member?
    init() {}
}

// through: league → teams → players; many-to-many student ↔ course through enrollment.
final class League: Model {
    @Column var name: String = ""
    @HasMany(dependent: .destroy) var teams: Children<Team>
    @HasManyThrough(\League.teams, \Team.players) var players: Through<Player>
    init() {}
}

final class Team: Model {
    @Column var name: String = ""
    @BelongsTo var league: League?
    @HasMany(dependent: .nullify) var players: Children<Player>
    init() {}
}

final class Player: Model {
    @Column var name: String = ""
    @Column var age: Int = 0
    @BelongsTo var team: Team?
    init() {}
}

final class Student: Model {
    @Column var name: String = ""
    @HasMany(dependent: .delete) var enrollments: Children<Enrollment>
    @HasManyThrough(\Student.enrollments, \Enrollment.course) var courses: Through<Course>
    init() {}
}

final class Course: Model {
    @Column var title: String = ""
    @HasMany(dependent: .destroy) var enrollments: Children<Enrollment>
    init() {}
}

final class Enrollment: Model {
    @BelongsTo var student: Student?
    @BelongsTo var course: Course?
    init() {}
}

// A self-referential tree whose links can form a cycle.
final class Node: Model {
    @Column var label: String = ""
    @BelongsTo var parent: Node?
    @HasMany(dependent: .destroy) var children: Children<Node>
    init() {}
}

// Two belongs-to to the same parent: the inverse must be named.
final class Mail: Model {
    @Column var subject: String = ""
    @BelongsTo var sender: Correspondent?
    @BelongsTo var recipient: Correspondent?
    init() {}
}

final class Correspondent: Model {
    @Column var name: String = ""
    @HasMany(\Mail.sender) var sent: Children<Mail>
    @HasMany(\Mail.recipient, dependent: .delete) var received: Children<Mail>
    init() {}
}

final class AmbiguousCorrespondent: Model {
    @Column var name: String = ""
    @HasMany var letters: Children<Letter>
    init() {}
}

final class Letter: Model {
    @BelongsTo var from: AmbiguousCorrespondent?
    @BelongsTo var to: AmbiguousCorrespondent?
    init() {}
}

final class Lonely: Model {
    @Column var name: String = ""
    @HasMany var friends: Children<Stranger>
    init() {}
}

final class Stranger: Model {
    @Column var name: String = ""
    init() {}
}

/// Two `@HasOne` of one child type: each resolves by its key path, not by the type.
final class Match: Model {
    @Column var title = ""
    @HasOne(\Seat.homeMatch) var homeSeat: Seat?
    @HasOne(\Seat.awayMatch) var awaySeat: Seat?
    init() {}
}

final class Seat: Model {
    @Column var label = ""
    @BelongsTo var homeMatch: Match?
    @BelongsTo var awayMatch: Match?
    init() {}
}
