import ArrayAdapter
import Foundation
import Testing

/// A model only this suite writes, so changes from parallel suites never mix in.
final class Hushed: Model {
    @Column var name: String = ""
    init() {}
}

/// What a transaction announces at commit while a `ModelContext` is live: its writes, but
/// never those made under `withoutNotifications`.
@Suite struct ContextNotificationTests {
    @Test func aSuppressedWriteInATransactionIsNotAnnouncedAtCommitWithALiveContext() async throws {
        let store = ArrayAdapter()
        let changes = ModelNotifications.changes(of: Hushed.self)
        let context = ModelContext()
        let (hushed, heard) = try context.run {
            try store.transaction {
                let hushed = try ModelNotifications.withoutNotifications { try Hushed.create(["name": "hushed"], in: store) }
                let heard = try Hushed.create(["name": "heard"], in: store)
                return (hushed, heard)
            }
        }
        #expect(try await Hushed.count(in: store) == 2, "the data is written all the same")
        // The commit announced the heard write first; the hushed one never comes.
        try await context.run { try await Hushed.create(["name": "after"], in: store) }
        var seen: [ModelValue] = []
        for await change in changes {
            seen.append(change.id)
            if change.values.contains(.string("after")) { break }
        }
        #expect(seen == [heard._value(at: 0), .int(3)], "announced: \(seen), hushed was \(hushed._value(at: 0))")
    }
}
