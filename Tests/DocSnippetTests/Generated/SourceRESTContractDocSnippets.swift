// Generated from the `///` comments of Sources/RESTContract by Scripts/doc-snippets.py: do not edit;
// edit the comments and rerun. Compiled, not run.
// swift-format-ignore-file

@testable import RESTContract
import ArrayAdapter
import FileAdapter
import Foundation
import PostgresAdapter
import RESTAdapter
import SQLiteAdapter
import Testing

extension SourceRESTContractDoc {
    /// Sources/RESTContract/Resources/RESTResource.swift, snippet 1.
    static func RESTResource1(_ given: Context) throws {
        let api = given.api
        show(api.register(SourceDoc_Employee.self, RESTResource(nestedUnder: "company")))
        // GET  /companies/10/employees        for company.employees
        // POST /companies/10/employees        to create one
        // GET  /companies/10/employees/45     when the owner is known, else /employees/45
    }
}
