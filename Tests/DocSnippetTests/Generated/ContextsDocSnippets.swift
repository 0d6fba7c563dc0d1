// Generated from Docs/Contexts.md by Scripts/doc-snippets.py: do not edit; edit the document and rerun.
// swift-format-ignore-file

import ArrayAdapter
import FileAdapter
import Foundation
import SQLiteAdapter
import Testing

// Docs/Contexts.md, snippet 1 (line 15)
final class ContextsDoc_Post: Model {
    @Column var title = ""
    @HasMany(dependent: .destroy) var comments: Children<ContextsDoc_Comment>
    init() {}
}

// Docs/Contexts.md, snippet 1 (line 15)
final class ContextsDoc_Comment: Model {
    @Column var body = ""
    @BelongsTo var post: ContextsDoc_Post?
    init() {}
}

// Docs/Contexts.md, snippet 4 (line 106)
final class ContextsDoc_AuditLine: Model {
    @Column var text = ""
    static var joinsContexts: Bool { false }
    init() {}
}

extension ContextsDoc {
    /// Docs/Contexts.md, snippet 1 (line 15).
    static func snippet1(_ context: Context) throws {
        _ = context

    }

    /// Docs/Contexts.md, snippet 2 (line 36).
    static func snippet2(_ context: Context) throws {
        let postID = context.postID
        let context = ModelContext()
        try show(context.run {
            let a = try ContextsDoc_Post.find(postID)
            let b = try ContextsDoc_Post.where(\.title == "Hello").first()
            let c = try a?.comments.first()?.load(\.post)
            assert(a === b && b === c)           // one instance
        })
        show(context)
    }

    /// Docs/Contexts.md, snippet 3 (line 92).
    static func snippet3(_ context: Context) throws {
        let cache = ModelContext(retainsRecords: true)   // hold everything loaded, as a cache
        try show(cache.run { _ = try ContextsDoc_Post.all() })
        show(print(cache.count, cache.approximateByteSize))   // records held, bytes of their values
        show(cache.evictUnchanged())                          // drop what has no pending work
        show(cache.clear())                                   // drop everything, pending work included
        show(ModelContext.clearAll())                         // every live context in the process
        show(cache)
    }

    /// Docs/Contexts.md, snippet 4 (line 106).
    static func snippet4(_ context: Context) throws {
        _ = context
    }

    /// Docs/Contexts.md, snippet 5 (line 116).
    static func snippet5(_ context: Context) throws {
        let context = ModelContext()
        let post = ContextsDoc_Post()
        post.title = "Draft"
        let comment = ContextsDoc_Comment()
        comment.body = "First!"
        comment.post = post                      // a parent that is not saved yet
        try show(context.insert(comment))              // order does not matter
        try show(context.insert(post))
        show(print(context.hasChanges))                // true
        try show(context.save())                       // post first, then comment (post_id set)

        post.title = "Published"                 // a change to a held record
        try show(context.delete(comment))
        show(print(context.changes.updated.count, context.changes.deleted.count))   // 1 1
        try show(context.save())

        post.title = "Oops"
        show(context.rollback())                       // post.title is "Published" again
        show(context, post, comment)
    }

    /// Docs/Contexts.md, snippet 6 (line 169).
    static func snippet6(_ context: Context) throws {
        let postID = context.postID
        let root = ModelContext()
        try show(root.run {
            let mine = try ContextsDoc_Post.find(postID)!
            try ModelContext.withTemporary { scratch in
                let theirs = try ContextsDoc_Post.find(postID)!      // the child's own instance
                theirs.title = "Experiment"
            }                                            // popped: the experiment is gone
            assert(mine.title != "Experiment")
        })
        show(root)
    }

    /// Docs/Contexts.md, snippet 7 (line 192).
    static func snippet7(_ context: Context) throws {
        let postID = context.postID
        let root = ModelContext()
        let editor = ModelContext(parent: root)
        try show(editor.run {
            let post = try ContextsDoc_Post.find(postID)!
            post.title = "Edited in a sheet"
            try editor.save()                 // into root; the store is unchanged
        })
        try show(root.save())                       // now written
        show(root, editor)
    }

    /// Docs/Contexts.md, snippet 8 (line 216).
    static func snippet8(_ context: Context) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("drafts.json")
        let drafts = ModelContext()
        let post = ContextsDoc_Post()
        post.title = "Unfinished"
        try show(drafts.insert(post))
        try show(drafts.write(to: url))

        let restored = try ModelContext(contentsOf: url, models: [ContextsDoc_Post.self, ContextsDoc_Comment.self])
        show(print(restored.hasChanges))            // true: the insert is pending again
        try show(restored.save())
        try show(FileManager.default.removeItem(at: url))  // saved: the drafts are in the store now
        show(url, drafts, post, restored)
    }
}

@Suite("Docs/Contexts.md snippets") struct ContextsDocSnippetTests {
    @Test func snippet1() throws { try privately { try ContextsDoc.withContext { try ContextsDoc.snippet1($0) } } }
    @Test func snippet2() throws { try privately { try ContextsDoc.withContext { try ContextsDoc.snippet2($0) } } }
    @Test func snippet3() throws { try privately { try ContextsDoc.withContext { try ContextsDoc.snippet3($0) } } }
    // snippet 4 is compiled only (marked compile-only in the document)
    @Test func snippet5() throws { try privately { try ContextsDoc.withContext { try ContextsDoc.snippet5($0) } } }
    @Test func snippet6() throws { try privately { try ContextsDoc.withContext { try ContextsDoc.snippet6($0) } } }
    @Test func snippet7() throws { try privately { try ContextsDoc.withContext { try ContextsDoc.snippet7($0) } } }
    @Test func snippet8() throws { try privately { try ContextsDoc.withContext { try ContextsDoc.snippet8($0) } } }
}
