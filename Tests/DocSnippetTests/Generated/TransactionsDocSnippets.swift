// Generated from Docs/Transactions.md by Scripts/doc-snippets.py: do not edit; edit the document and rerun.
// swift-format-ignore-file

import ArrayAdapter
import FileAdapter
import Foundation
import SQLiteAdapter
import Testing

extension TransactionsDoc {
    /// Docs/Transactions.md, snippet 1 (line 5).
    static func snippet1(_ context: Context) throws {
        let store = context.store
        let debit = context.debit
        let credit = context.credit
        try show(store.transaction {
            try debit.save()
            try credit.save()          // if anything throws, neither is stored
        })
    }

    /// Docs/Transactions.md, snippet 2 (line 31).
    static func snippet2(_ context: Context) throws {
        let store = context.store
        try show(store.transaction {
            for todo in try TransactionsDoc_Todo.where(\.priority > 2).lockForUpdate().all() {
                todo.priority -= 1
                try todo.save()
            }
        })
    }

    /// Docs/Transactions.md, snippet 3 (line 99).
    static func snippet3(_ context: Context) throws {
        let todo = context.todo
        let rejected = context.rejected
        try show(todo.transaction {
            todo.name = "draft"
            if rejected { try todo.rollback() }   // back to the values at the block's start
            todo.priority += 1                    // the block carries on
        })
    }
}

@Suite("Docs/Transactions.md snippets") struct TransactionsDocSnippetTests {
    @Test func snippet1() throws { try privately { try TransactionsDoc.withContext { try TransactionsDoc.snippet1($0) } } }
    @Test func snippet2() throws { try privately { try TransactionsDoc.withContext { try TransactionsDoc.snippet2($0) } } }
    @Test func snippet3() throws { try privately { try TransactionsDoc.withContext { try TransactionsDoc.snippet3($0) } } }
}
