import ArrayAdapter

enum ContextsDoc {
    struct Context {
        let store: ArrayAdapter
        let postID: Int64
    }

    static func withContext(_ body: (Context) throws -> Void) throws {
        let store = ArrayAdapter()
        try ModelStore.using(store) {
            let post = try ContextsDoc_Post.create(["title": "Hello"])
            try post.comments.create(["body": "Nice"])
            try body(Context(store: store, postID: post.id ?? -1))
        }
    }
}
