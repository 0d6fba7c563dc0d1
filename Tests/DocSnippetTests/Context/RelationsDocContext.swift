import ArrayAdapter

enum RelationsDoc {
    struct Context {
        let todo: RelationsDoc_Todo
        let erin: RelationsDoc_Assignee
        let member: RelationsDoc_Member
        let newCard: RelationsDoc_Card
    }

    static func withContext(_ body: (Context) throws -> Void) throws {
        try ModelStore.using(ArrayAdapter()) {
            let todo = try RelationsDoc_Todo.create(["name": "walk the dog"])
            try todo.assignees.create(["name": "bob"])
            let erin = try RelationsDoc_Assignee.create(["name": "erin"])
            let member = try RelationsDoc_Member.create()
            member.card = try RelationsDoc_Card(["number": "old"])
            try member.save()
            try body(Context(todo: todo, erin: erin, member: member, newCard: try RelationsDoc_Card(["number": "new"])))
        }
    }
}
