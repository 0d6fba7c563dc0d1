// Generated from the `///` comments of Sources/SwiftModelArray by Scripts/doc-snippets.py: do not edit;
// edit the comments and rerun. Compiled, not run.
// swift-format-ignore-file

@testable import SwiftModelArray
import ArrayAdapter
import FileAdapter
import Foundation
import PostgresAdapter
import RESTAdapter
import SQLiteAdapter
import Testing

enum SourceSwiftModelArrayDoc {
    struct Context {}
}

extension SourceSwiftModelArrayDoc {
    /// Sources/SwiftModelArray/ArrayAdapter.swift, snippet 1.
    static func ArrayAdapter1(_ given: Context) throws {

        let store = ArrayAdapter()
        show(ModelStore.setDefault(store))
        try show(SourceDoc_Todo(["name": "walk"]).save())
        try show(store.reset())          // empty it (tests, fixtures)
        show(store)
    }
}
