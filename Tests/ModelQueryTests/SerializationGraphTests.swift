import ArrayAdapter
import Foundation
import ModelCore
import ModelQuery
import Testing

@Suite("Serialization of relations and graphs")
struct SerializationGraphTests {
    /// An author with two books and a profile, stored.
    static func storedAuthor() throws -> WireAuthor {
        let author = try WireAuthor.create(["name": "Le Guin"])
        try author.books.create(["title": "Earthsea"])
        try author.books.create(["title": "The Dispossessed"])
        let profile = WireProfile()
        profile.bio = "Portland"
        profile.author = author
        try profile.save()
        return author
    }

    @Test func storedGraphsNestChildrenAndReferBackToTheOwner() throws {
        try withWireStore { _ in
            let author = try Self.storedAuthor()
            let dictionary = try author.dictionaryValue()
            let reference: ModelValue = ["$ref": ["model": "WireAuthor", "id": 1]]
            #expect(
                dictionary == [
                    "id": 1, "name": "Le Guin",
                    "books": [
                        ["id": 1, "title": "Earthsea", "author": reference],
                        ["id": 2, "title": "The Dispossessed", "author": reference],
                    ],
                    "bio_page": ["id": 1, "bio": "Portland", "author_id": 1],
                ])

            let copy = try WireAuthor(json: try author.jsonData())
            #expect(copy.isNew && copy.name == "Le Guin")
            let books = try copy.books.all()  // read from the document, not a store
            #expect(books.map(\.title) == ["Earthsea", "The Dispossessed"])
            #expect(books.allSatisfy { $0.author === copy })  // the reference is the same instance
            #expect(copy.profile?.bio == "Portland")
            #expect(copy.profile?.author === copy)
        }
    }

    @Test func aChildNestsItsParentWhichNestsItsSiblings() throws {
        try withWireStore { _ in
            _ = try Self.storedAuthor()
            let book = try #require(try WireBook.find(2))
            let dictionary = try book.dictionaryValue()
            guard case .dictionary(let author)? = dictionary["author"], case .array(let books)? = author["books"] else {
                Testing.Issue.record("the author is not nested: \(dictionary)")
                return
            }
            #expect(books.count == 2)
            #expect(books[1] == ["$ref": ["model": "WireBook", "id": 2]])  // the book itself: a reference
            let back = try WireBook(dictionary: dictionary)
            #expect(try back.author?.books.all().last === back)
        }
    }

    @Test func sharedParentsAreWrittenOnceAcrossAnArray() throws {
        try withWireStore { _ in
            _ = try Self.storedAuthor()
            let books = try WireBook.all()
            let list = try books.dictionaryValues()
            #expect(list[1]["author"] == ["$ref": ["model": "WireAuthor", "id": 1]])
            let back = try WireBook.records(fromJSON: try books.jsonData())
            #expect(back[0].author === back[1].author)
            #expect(back[0].author?.name == "Le Guin")

            // Through Codable, a shared graph does the same across array elements.
            let encoder = JSONEncoder()
            encoder.userInfo[.serializationGraph] = SerializationGraph()
            let data = try encoder.encode(books)
            let decoder = JSONDecoder()
            decoder.userInfo[.serializationGraph] = SerializationGraph()
            let decoded = try decoder.decode([WireBook].self, from: data)
            #expect(decoded[0].author === decoded[1].author)
            // Without one, each element stands alone and a reference to another element fails.
            let error = #expect(throws: SerializationError.self) { try JSONDecoder().decode([WireBook].self, from: data) }
            #expect(error?.kind == .unresolvedReference && error?.keyPath == "author.$ref")
        }
    }

    @Test func unsavedCyclesUseDocumentLocalKeys() throws {
        let team = try WireTeam(dictionary: ["TeamName": "Rovers", "Players": [["name": "Ann"], ["name": "Bo"]]])
        let players = try team.players.all()
        #expect(players.map(\.name) == ["Ann", "Bo"])
        #expect(players.allSatisfy { $0.team === team })  // linked while unsaved
        let dictionary = try team.dictionaryValue()
        #expect(dictionary["$key"] == 1)
        #expect(dictionary["Players"] == [["name": "Ann", "team": ["$ref": ["model": "WireTeam", "key": 1]]], ["name": "Bo", "team": ["$ref": ["model": "WireTeam", "key": 1]]]])
        let back = try WireTeam(json: try team.jsonData())
        #expect(try back.players.all().allSatisfy { $0.team === back })

        // Saving the graph: the owner first, then the children pick up its id.
        try withWireStore { _ in
            try back.save()
            for player in try back.players.all() { try player.save() }
            #expect(try WirePlayer.where(\.name == "Bo").first()?.load(\.team)?.name == "Rovers")
        }
    }

    @Test func referencesMustResolve() throws {
        let unknown = #expect(throws: SerializationError.self) {
            try WireBook(dictionary: ["title": "x", "author": ["$ref": ["model": "WireAuthor", "id": 9]]])
        }
        #expect(unknown?.kind == .unresolvedReference && unknown?.keyPath == "author.$ref")
        let wrongModel = #expect(throws: SerializationError.self) {
            try WireBook(dictionary: ["author": ["$ref": ["model": "WireBook", "id": 1]]])
        }
        #expect(wrongModel?.kind == .unresolvedReference)
        #expect(wrongModel?.message.contains("refers to a WireBook where a WireAuthor belongs") == true)
        let malformed = #expect(throws: SerializationError.self) { try WireBook(dictionary: ["author": ["$ref": 3]]) }
        #expect(malformed?.kind == .unresolvedReference)
    }

    @Test func nullParentsAndMissingChildren() throws {
        try withWireStore { _ in
            let orphan = try WireBook.create(["title": "orphan"])
            #expect(try orphan.dictionaryValue()["author"] == .null)
            let author = try WireAuthor.create(["name": "nobody"])
            let dictionary = try author.dictionaryValue()
            #expect(dictionary["books"] == [] && dictionary["bio_page"] == .null)
            let read = try WireBook(dictionary: ["title": "t", "author_id": 1, "author": .null])
            #expect(read.author == nil)
        }
    }

    @Test func aFailingRelationLoadIsATypedError() throws {
        let book = WireBook()
        book.title = "dangling"
        try book.set("author_id", to: 5)  // a parent id, and no store to load it from
        let error = #expect(throws: SerializationError.self) { try book.dictionaryValue() }
        #expect(error?.kind == .storeFailure && error?.keyPath == "author" && error?.model == "WireBook")
        #expect(error?.message.contains("no adapter") == true)
    }
}
