import ArrayAdapter

final class TransactionsDoc_Todo: Model {
    @Column var name = ""
    @Column var priority = 0
    init() {}
}

final class TransactionsDoc_Account: Model {
    @Column var balance = 0.0
    init() {}
}

enum TransactionsDoc {
    struct Context {
        let store: ArrayAdapter
        let debit: TransactionsDoc_Account
        let credit: TransactionsDoc_Account
        let todo: TransactionsDoc_Todo
        let rejected: Bool
    }

    static func withContext(_ body: (Context) throws -> Void) throws {
        let store = ArrayAdapter()
        try ModelStore.using(store) {
            let todo = try TransactionsDoc_Todo.create(["name": "ready"])
            try body(
                Context(
                    store: store, debit: TransactionsDoc_Account(), credit: TransactionsDoc_Account(), todo: todo, rejected: true))
        }
    }
}
