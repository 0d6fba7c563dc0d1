import Foundation

/// Who gives a new record its id.
public enum RESTIDAssignment: String, Sendable, Hashable {
    /// Auto-increment models get theirs from the server; models that generate ids (UUID)
    /// send them. Whatever id the server answers with is the record's id.
    case automatic
    /// The server always assigns the id: a create never sends one (a client-generated
    /// UUID is a local identity that the server's id replaces).
    case server
    /// The client's id is always sent and kept.
    case client
}

/// The parts of a list query a server honours (see ``RESTResource/querySupport``).
public struct RESTQuerySupport: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    /// Creates a set from its raw value.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Conditions on columns.
    public static let filter = RESTQuerySupport(rawValue: 1)
    /// Sort order.
    public static let sort = RESTQuerySupport(rawValue: 2)
    /// Limit and offset (or pages).
    public static let paging = RESTQuerySupport(rawValue: 4)
    /// Everything: the default.
    public static let all: RESTQuerySupport = [.filter, .sort, .paging]
    /// Nothing: the server lists everything, in its own order.
    public static let none: RESTQuerySupport = []
}

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
    /// Who gives a new record its id (see ``RESTIDAssignment``).
    public var idAssignment: RESTIDAssignment = .automatic
    /// Columns the server sets (`url`, `created_at`, a computed `completed`), by column
    /// name: never sent in a request body, always read from responses.
    public var readOnlyColumns: Set<String> = []
    /// Statuses that mean "no such record" for a read, update or delete (404 by default;
    /// APIs also answer 204, 400 or 410): `find` returns nil, an update throws
    /// ``StoreError`` `.notFound`, a delete returns false — as on every adapter. A 2xx
    /// status here (204) counts for reads only, since it is also a successful update or
    /// delete.
    public var notFoundStatuses: Set<Int> = [404]
    /// How an update clears an optional column (sets it to nil). `.null` (the default)
    /// sends JSON `null` in the `PATCH`; `.put` sends such an update as a `PUT` of every
    /// writable column, for APIs where `null` in a `PATCH` means "unchanged".
    public var clearing: RESTClearing = .null
    /// The parts of a list query the server honours; a query using another part is
    /// refused before anything is sent (``RESTError/Kind/unsupportedQuery``).
    public var querySupport: RESTQuerySupport = .all
    /// Whether list results are checked against the query (every row matches the filter,
    /// rows come in the asked order, no more than the limit): a server that ignored part of
    /// the query is ``RESTError/Kind/queryIgnored`` instead of wrong rows.
    public var verifiesResults = true
    /// Whether the server serves a changes feed at `<collection>/changes` (as
    /// `ModelServer` does for a model that keeps history; the protocol is in
    /// `Docs/Sync.md`): `RESTSync.pull` then reads only the changes since its checkpoint.
    public var changesFeed = false

    /// A resource; every setting defaults to the adapter's.
    public init(
        collectionPath: String? = nil, instancePath: String? = nil, nestedUnder: String? = nil, shallow: Bool = true,
        headers: [String: String] = [:], queryEncoder: (any RESTQueryEncoder)? = nil, idAssignment: RESTIDAssignment = .automatic,
        readOnlyColumns: Set<String> = [], notFoundStatuses: Set<Int> = [404], querySupport: RESTQuerySupport = .all
    ) {
        self.idAssignment = idAssignment
        self.readOnlyColumns = readOnlyColumns
        self.notFoundStatuses = notFoundStatuses
        self.querySupport = querySupport
        self.collectionPath = collectionPath
        self.instancePath = instancePath
        self.nestedUnder = nestedUnder
        self.shallow = shallow
        self.headers = headers
        self.queryEncoder = queryEncoder
    }
}

/// How an update that sets a column to nil reaches the server (``RESTResource/clearing``).
public enum RESTClearing: Sendable {
    /// JSON `null` for the column in the `PATCH` body.
    case null
    /// The update goes as a `PUT` of every writable column (a `PATCH` without nulls
    /// otherwise).
    case put
}
