import ArrayAdapter
import Foundation

/// The models Docs/Querying.md queries, and a few rows.
final class QueryingDoc_Todo: Model {
    @Column var name = ""
    @Column var assignedTo: String?
    @Column var location: String?
    @Column var priority = 0
    @Column var done = false
    @Column var archived = false
    @Column var dueDate: Date?
    @Column var due: Date?
    @Column var tags: [String] = []
    init() {}
}

final class QueryingDoc_Person: Model {
    @Column var name = ""
    @Column var email: String?
    @Column var age: Int?
    @Column var city: String?
    @Column var score = 0.0
    @Column var joined: Date?
    @Column var active = true
    init() {}
}

enum QueryingDoc {
    struct Context {
        let cutoff: Date
        let level: Int
    }

    static func withContext(_ body: (Context) throws -> Void) throws {
        try ModelStore.using(ArrayAdapter()) {
            try QueryingDoc_Todo.create(["name": "walk the dog", "assigned_to": "bob", "location": "seattle", "priority": 2])
            try QueryingDoc_Person.create(["name": "Ann", "age": 34, "city": "Paris", "score": 8.5])
            try QueryingDoc_Person.create(["name": "Bob", "age": 41, "city": "Seattle", "score": 6.0])
            try body(Context(cutoff: Date(timeIntervalSince1970: 1_700_000_000), level: 3))
        }
    }
}
