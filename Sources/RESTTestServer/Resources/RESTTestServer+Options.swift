import ModelCore

extension RESTTestServer {
    /// How the server behaves.
    public struct Options: Sendable {
        /// Wraps every response body in `{"<key>": …}` and unwraps request bodies.
        public var envelope: String?
        /// Pages lists that ask for no limit, linking the next page.
        public var pageSize: Int?
        /// Bearer tokens accepted; nil accepts every request.
        public var acceptedTokens: Set<String>?
        /// A path prefix every route lives under (`/api/v1`).
        public var pathPrefix: String
        /// Fields whose non-null values must differ between the objects of a collection, by
        /// collection name: a create or update that would repeat one gets a 409.
        public var uniqueFields: [String: Set<String>]
        /// How the server assigns ids to objects created without one.
        public var ids: IDStyle = .integer
        /// Lists every object of a collection in creation order, whatever the query asks
        /// (as APIs that take no query parameters do).
        public var ignoresQuery = false
        /// The status for a missing object (404 by default; 204, 400 and 410 are common).
        public var missingStatus = 404
        /// The status for a missing object on `PUT`, `PATCH` and `DELETE`, when it differs
        /// from ``missingStatus`` (an API answering a missing `GET` with 204 and a missing
        /// write with 400).
        public var missingWriteStatus: Int?
        /// Sets `url` (the object's path) and `updated_at` (now) on every write, as APIs
        /// with server-set fields do.
        public var setsServerFields = false
        /// Leaves keys whose value is null out of every object it answers, as many APIs do.
        public var omitsNulls = false
        /// Ignores keys whose value is null in a `PATCH` ("null means unchanged"); a `PUT`
        /// still replaces the whole object.
        public var patchNullMeansUnchanged = false
        /// Answers as Parse Server's REST API does (see ``ParseStyle``): `objectId`,
        /// `createdAt` and `updatedAt` set by the server, lists in `{"results": […]}`, a
        /// create answered with `{objectId, createdAt}`, an update with `{updatedAt}`, a
        /// delete with `{}`, a missing object with 404 `{"code": 101, …}`.
        public var parseStyle = false

        /// How a server assigns ids.
        public enum IDStyle: Sendable {
            /// 1, 2, 3, …
            case integer
            /// A random UUID string: the client's id is ignored on create.
            case uuid
            /// `rec_1`, `rec_2`, …: the client's id is ignored on create.
            case prefixedString
        }

        /// Options; by default no envelope, no paging, no auth, no prefix, no unique fields.
        public init(
            envelope: String? = nil, pageSize: Int? = nil, acceptedTokens: Set<String>? = nil, pathPrefix: String = "",
            uniqueFields: [String: Set<String>] = [:]
        ) {
            self.envelope = envelope
            self.pageSize = pageSize
            self.acceptedTokens = acceptedTokens
            self.pathPrefix = pathPrefix
            self.uniqueFields = uniqueFields
        }
    }
}
