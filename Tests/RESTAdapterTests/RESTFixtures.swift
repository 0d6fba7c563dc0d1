import Foundation
import RESTAdapter
import RESTTestServer
import Testing

final class Company: Model {
    @Column var name: String = ""
    @HasMany(dependent: .destroy) var employees: Children<Employee>
    init() {}
}

final class Employee: Model {
    @Column var name: String = ""
    @Column var age: Int = 0
    @Column var hiredAt: Date?
    @BelongsTo var company: Company?
    init() {}
}

/// A model with a custom JSON mapping: camel-case keys, omitted nulls, epoch dates.
final class Gadget: Model {
    @Column var displayName: String = ""
    @Column var releasedAt: Date?
    @Column var secret: String = ""
    @Column var note: String?
    init() {}

    static var jsonMapping: JSONMapping<Gadget> {
        JSONMapping(keyCase: .lowerCamelCase, dates: .secondsSince1970, nulls: .omit).excluding(\.secret)
    }
}

/// A server and an adapter on it, stopped at the end of the test.
final class RESTFixture {
    let server: RESTTestServer
    let adapter: RESTAdapter

    init(
        options: RESTTestServer.Options = .init(), configure: (inout RESTConfiguration) -> Void = { _ in },
        nested: Bool = true
    ) throws {
        server = try RESTTestServer(options: options)
        var configuration = RESTConfiguration()
        configuration.retry.baseDelay = .milliseconds(10)
        configure(&configuration)
        adapter = RESTAdapter(baseURL: server.baseURL, configuration: configuration)
        if nested { adapter.register(Employee.self, RESTResource(nestedUnder: "company")) }
    }

    deinit { server.stop() }

    /// The requests made so far as `METHOD /path?query`.
    var log: [String] {
        server.requests.map { request in
            let query = request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
            return request.method + " " + request.path + (query.isEmpty ? "" : "?" + query)
        }
    }
}
