import ArrayAdapter
import Foundation
import Testing

/// Models used only here, so events from parallel suites never mix in.
final class Note: Model {
    @Column var text: String = ""
    init() {}
}

final class Memo: Model {
    @Column var text: String = ""
    init() {}
}

/// Collects `.modelDidChange` posts about one model type.
final class PostCollector: @unchecked Sendable {
    // @unchecked Sendable: `changes` and `objects` are guarded by `lock`.
    private let lock = NSLock()
    private var changes: [ModelChange] = []
    private var objects: [ObjectIdentifier?] = []
    private var token: NSObjectProtocol?

    init<M: Model>(_ type: M.Type) {
        token = NotificationCenter.default.addObserver(forName: .modelDidChange, object: nil, queue: nil) {
            [weak self] note in
            guard let change = note.userInfo?["change"] as? ModelChange, change.isAbout(M.self) else { return }
            let object = (note.object as AnyObject?).map(ObjectIdentifier.init)
            self?.lock.withLock {
                self?.changes.append(change)
                self?.objects.append(object)
            }
        }
    }

    deinit { token.map(NotificationCenter.default.removeObserver) }

    var received: [ModelChange] { lock.withLock { changes } }
    var instances: [ObjectIdentifier?] { lock.withLock { objects } }
}

@Suite("Change notifications", .serialized)
struct NotificationTests {
    @Test func insertUpdateDeleteArePostedWithTheInstance() throws {
        let posts = PostCollector(Note.self)
        try withStore { (_: ArrayAdapter) throws in
            let note = Note()
            note.text = "a"
            try note.save()
            note.text = "b"
            try note.save()
            try note.save()  // unchanged: nothing to announce
            try note.delete()
            let received = posts.received
            #expect(received.map(\.action) == [.insert, .update, .delete])
            #expect(received.map(\.id) == [1, 1, 1])
            #expect(received.allSatisfy { $0.modelName == "Note" })
            #expect(received[1].changedColumns == ["text"])
            #expect(received[1].attributes["text"] == "b")
            #expect(posts.instances == Array(repeating: ObjectIdentifier(note), count: 3))
            let copy = try #require(received[1].record(as: Note.self))
            #expect(copy !== note && copy.text == "b" && !copy.isNew)
            #expect(received[1].record(as: Memo.self) == nil)
        }
    }

    @Test func failedOrDeclinedSavePostsNothing() throws {
        let posts = PostCollector(Note.self)
        try withStore { (_: ArrayAdapter) throws in
            let a = Note()
            a.id = 1
            try a.save()
            let b = Note()
            b.id = 1
            #expect(throws: StoreError.self) { try b.save() }
            #expect(posts.received.count == 1)
        }
    }

    @Test func bulkDeleteIsOneEvent() throws {
        let posts = PostCollector(Note.self)
        try withStore { (_: ArrayAdapter) throws in
            for _ in 0..<5 { try Note().save() }
            #expect(try Note.deleteAll() == 5)
            let received = posts.received
            #expect(received.count == 6)
            #expect(received.last?.action == .deleteAll)
            #expect(received.last?.count == 5)
        }
    }

    @Test func suppressionIsScopedNestableAndRestoredOnThrow() throws {
        let posts = PostCollector(Note.self)
        struct Boom: Error {}
        try withStore { (_: ArrayAdapter) throws in
            try ModelNotifications.withoutNotifications {
                try Note().save()
                try ModelNotifications.withoutNotifications { try Note().save() }
                #expect(ModelNotifications.areSuppressed)
                try Note().save()
            }
            #expect(throws: Boom.self) {
                try ModelNotifications.withoutNotifications {
                    try Note().save()
                    throw Boom()
                }
            }
            #expect(!ModelNotifications.areSuppressed)
            try Note().save()
            #expect(posts.received.map(\.id) == [5])
        }
    }

    @Test func storeTransactionDefersUntilCommitAndDropsOnRollback() throws {
        let posts = PostCollector(Note.self)
        struct Boom: Error {}
        try withStore { (store: ArrayAdapter) throws in
            try store.transaction {
                try Note().save()
                #expect(posts.received.isEmpty)  // not yet committed
                #expect(throws: Boom.self) {
                    try store.transaction {
                        try Note().save()
                        throw Boom()
                    }
                }
            }
            #expect(posts.received.map(\.id) == [1])
            #expect(throws: Boom.self) {
                try store.transaction {
                    try Note().save()
                    throw Boom()
                }
            }
            #expect(posts.received.count == 1)
        }
    }

    @Test func asyncSequenceDeliversCommittedChanges() async throws {
        let stream = ModelNotifications.changes(of: Memo.self)
        let store = ArrayAdapter()
        try ModelStore.using(store) {
            let memo = Memo()
            memo.text = "x"
            try memo.save()
            try Note().save()  // another model: filtered out
            memo.text = "y"
            try memo.save()
            try memo.delete()
        }
        var actions: [ModelChange.Action] = []
        for await change in stream {
            actions.append(change.action)
            if actions.count == 3 { break }
        }
        #expect(actions == [.insert, .update, .delete])
    }

    @Test func postingStartsOnceTheNameIsUsedAndAChoiceStays() {
        typealias Mode = ModelNotifications.CenterMode
        #expect(!Mode.unused.posts)  // nobody named `.modelDidChange`: no post per change
        #expect(Mode.unused.named == .named && Mode.named.posts)
        #expect(Mode.off.named == .off && !Mode.off.posts)  // an explicit `false` stays
        #expect(Mode.on.named == .on && Mode.on.posts)
        ModelNotifications.withPrivateSettings {
            #expect(!ModelNotifications.postsToNotificationCenter, "a private setting starts unused")
            _ = Notification.Name.modelDidChange
            #expect(ModelNotifications.postsToNotificationCenter)
        }
    }

    @Test func notificationCenterPostingCanBeTurnedOff() throws {
        try ModelNotifications.withPrivateSettings { () throws in
            let posts = PostCollector(Note.self)
            ModelNotifications.postsToNotificationCenter = false
            try withStore { (_: ArrayAdapter) throws in try Note().save() }
            #expect(posts.received.isEmpty)
            ModelNotifications.postsToNotificationCenter = true
            try withStore { (_: ArrayAdapter) throws in try Note().save() }
            #expect(posts.received.count == 1)
        }
    }
}
