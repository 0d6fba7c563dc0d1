// Generated from Docs/Notifications.md by Scripts/doc-snippets.py: do not edit; edit the document and rerun.
// swift-format-ignore-file

import ArrayAdapter
import FileAdapter
import Foundation
import SQLiteAdapter
import Testing

extension NotificationsDoc {
    /// Docs/Notifications.md, snippet 1 (line 10).
    static func snippet1(_ context: Context) throws {
        show(NotificationCenter.default.addObserver(forName: .modelDidChange, object: nil, queue: nil) { note in
            guard let change = note.userInfo?["change"] as? ModelChange else { return }
            let record = note.object as? NotificationsDoc_Todo   // the instance that was saved or deleted
            print(change.action, change.id, record?.name ?? "(bulk change)")
        })
    }

    /// Docs/Notifications.md, snippet 2 (line 30).
    static func snippet2(_ context: Context) async throws {
        for await change in ModelNotifications.changes(of: NotificationsDoc_Todo.self) {
            print(change.action, change.id, change.changedColumns)
            let copy = change.record(as: NotificationsDoc_Todo.self)   // a detached instance built from the snapshot
            print(copy?.name ?? "(bulk change)")
        }
    }

    /// Docs/Notifications.md, snippet 3 (line 66).
    static func snippet3(_ context: Context) throws {
        let importFixtures = context.importFixtures
        try show(ModelNotifications.withoutNotifications {
            try importFixtures()       // nothing announced; nestable; restored on return or throw
        })
    }
}

@Suite("Docs/Notifications.md snippets") struct NotificationsDocSnippetTests {
    @Test func snippet1() throws { try privately { try NotificationsDoc.withContext { try NotificationsDoc.snippet1($0) } } }
    // snippet 2 is async: compiled only
    @Test func snippet3() throws { try privately { try NotificationsDoc.withContext { try NotificationsDoc.snippet3($0) } } }
}
