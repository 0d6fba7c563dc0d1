import Foundation

/// How one model is served: its paths, nesting under an owner, headers, query encoder,
/// envelope and body hooks. Register it with ``RESTAdapter/register(_:_:)``; models
/// without one use the defaults (paths from the table name: `teams`, `teams/:id`).
///
/// ```swift
/// api.register(Employee.self, RESTResource(nestedUnder: "company"))
/// // GET  /companies/10/employees        for company.employees
/// // POST /companies/10/employees        to create one
/// // GET  /companies/10/employees/45     when the owner is known, else /employees/45
/// ```
public struct RESTResource: Sendable {
    /// The collection path template (`"teams"`, `"leagues/:league_id/teams"`).
    public var collectionPath: String?
    /// The instance path template (`"teams/:id"`).
    public var instancePath: String?
    /// The `@BelongsTo` relation whose owner the resource nests under.
    public var nestedUnder: String?
    /// Whether a nested resource is also reachable without its owner (`/employees/45`,
    /// as Rails' shallow routes): used when a request does not know the owner's id.
    public var shallow: Bool
    /// Headers for this model's requests (win over the adapter's).
    public var headers: [String: String]
    /// This model's query encoder (instead of the adapter's).
    public var queryEncoder: (any RESTQueryEncoder)?
    /// This model's envelope key: `.some(nil)` for bare bodies, nil for the adapter's.
    public var envelope: String??
    /// Adds to or changes a body before it is sent to create a record.
    public var beforeCreate: (@Sendable (inout [String: ModelValue]) throws -> Void)?
    /// Adds to or changes a body before it is sent to update a record (only the changed
    /// keys for `PATCH`).
    public var beforeUpdate: (@Sendable (inout [String: ModelValue]) throws -> Void)?
    /// Adjusts each parsed object before it is mapped to a row (rename keys, flatten).
    public var adjustParsed: (@Sendable (inout [String: ModelValue]) throws -> Void)?

    /// A resource; every setting defaults to the adapter's.
    public init(
        collectionPath: String? = nil, instancePath: String? = nil, nestedUnder: String? = nil, shallow: Bool = true,
        headers: [String: String] = [:], queryEncoder: (any RESTQueryEncoder)? = nil
    ) {
        self.collectionPath = collectionPath
        self.instancePath = instancePath
        self.nestedUnder = nestedUnder
        self.shallow = shallow
        self.headers = headers
        self.queryEncoder = queryEncoder
    }
}
